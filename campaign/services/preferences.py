"""An account's language and time zone: the only writer of AccountPreference."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from campaign.models import AccountPreference
from config.locale import supported_language, valid_time_zone

LANGUAGE_UNKNOWN = gettext_lazy("Chronicle is not translated into this language.")
TIME_ZONE_UNKNOWN = gettext_lazy("This time zone is unknown: pick one from the list.")


def account_preference_set(*, user: User, language: str, time_zone: str = "") -> AccountPreference:
    """The account's language (one of LANGUAGES) and time zone (an IANA name, or blank for the
    browser's); refused with a clear message otherwise."""
    chosen = supported_language(language)
    if chosen is None:
        raise ValidationError(str(LANGUAGE_UNKNOWN))
    if time_zone and valid_time_zone(time_zone) is None:
        raise ValidationError(str(TIME_ZONE_UNKNOWN))
    preference, _ = AccountPreference.objects.update_or_create(
        user=user, defaults={"language": chosen, "time_zone": time_zone}
    )
    return preference


def account_preference_get(*, user: User) -> AccountPreference | None:
    return AccountPreference.objects.filter(user=user).first()
