"""The campaign's pages at 375 px in German, Italian, French and Spanish (the campaign page, its
board and Houses, a House page, a night's story, the statistics, the members, the Realm Chronicles):
each answers in the reader's language, no element is wider than the screen (long German compounds
wrap), and each is kept as a screenshot (screenshots/campaign-<page>-<lang>-375.png)."""

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE, login
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OWNER = "olga"
# A heading of each page (in the order of pages()) in each language: the page is the translated one.
HEADINGS = {
    "de": (
        "Häuser",
        "Reichsplan: Chronikbereich",
        "Abend für Abend",
        "Das Ende der Herrschaft",
        "Die Statistik des Reiches",
        "Mitglieder",
        "Chroniken des Reiches",
    ),
    "it": (
        "Casate",
        "Plancia del Regno: area Cronaca",
        "Serata per serata",
        "La fine del regno",
        "Le statistiche del Regno",
        "Membri",
        "Cronache del Regno",
    ),
    "fr": (
        "Maisons",
        "Plateau du royaume : zone Chronique",
        "Soirée après soirée",
        "La fin du règne",
        "Les statistiques du royaume",
        "Membres",
        "Chroniques du royaume",
    ),
    "es": (
        "Casas",
        "Tablero del Reino: zona de Crónica",
        "Noche a noche",
        "El fin del reinado",
        "Las estadísticas del Reino",
        "Miembros",
        "Crónicas del Reino",
    ),
}


def no_overflow(page) -> list[str]:
    """The elements wider than the screen, those inside a strip or table made to scroll sideways
    (the sections' strip, the wide tables) aside: a long word that does not wrap."""
    return page.eval_on_selector_all(
        "body *",
        """els => els.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .filter(e => { for (let a = e.parentElement; a; a = a.parentElement) {
              if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return false; } return true; })
          .map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))""",
    )


def pages(campaign, houses, games) -> dict[str, str]:
    pk = campaign.pk
    return {
        "detail": reverse("campaign-detail", args=[pk]),
        "houses": reverse("campaign-detail", args=[pk]) + "#board",
        "house": reverse("house-page", args=[pk, houses[0].pk]),
        "story": reverse("night-story", args=[pk, games[0].number]),
        "statistics": reverse("campaign-statistics", args=[pk]),
        "members": reverse("campaign-members", args=[pk]),
        "chronicles": reverse("campaign-chronicles", args=[pk]),
    }


@pytest.mark.parametrize("language", ["de", "it", "fr", "es"])
def test_the_campaign_pages_at_375_px_in_each_language(live_server, new_page, screenshot, language):
    owner = UserFactory(username=OWNER)
    campaign, houses, games = campaign_of_nights(2, user=owner, name="Herbst")
    page = new_page(PHONE, locale=language)
    login(page, live_server, OWNER)
    page.wait_for_selector(f".topbar >> text={OWNER}")
    for (name, url), heading in zip(pages(campaign, houses, games).items(), HEADINGS[language], strict=True):
        page.goto(live_server.url + url)
        if name == "houses":  # the board and the Houses' folds, opened as a player reads them
            page.evaluate(
                "document.querySelectorAll('#house-list details, .legend-fold').forEach(d => { d.open = true; })"
            )
            page.locator("#board").scroll_into_view_if_needed()
        assert page.get_attribute("html", "lang") == language
        assert heading in page.inner_text("main"), name
        assert no_overflow(page) == [], name
        screenshot(page, f"campaign-{name}-{language}-375")
