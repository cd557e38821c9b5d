"""Two first sign-ups at the same moment on a fresh install (issue 24 item 1): exactly one account
is made its administrator (config/accounts.py locks the accounts and looks again)."""

import pytest
from django.contrib.auth import get_user_model

from config.accounts import user_promote_if_first
from tests.factories import UserFactory
from tests.integration.api.test_concurrency import race

pytestmark = [pytest.mark.database, pytest.mark.django_db(transaction=True)]


class FirstAccountRaceTests:
    def test_two_first_accounts_at_once_make_one_administrator(self):
        users = [UserFactory(), UserFactory()]
        turn = iter(users)
        promoted = race(lambda: user_promote_if_first(user=next(turn)))
        assert sorted(promoted) == [False, True]
        assert get_user_model().objects.filter(is_superuser=True, is_staff=True).count() == 1
