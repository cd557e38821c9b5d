"""Every page and API answer a member reads of one campaign, and the same page without what differs by
construction between two copies of a campaign (ids, the user's name, tokens): the archive's round trip
and the campaign's fold compare them."""

import re

from campaign.models import ChronicleGame
from games.models import Seat


def pages_of(campaign) -> list[str]:
    """Every page and API answer of the campaign a member reads."""
    c = campaign.pk
    urls = [
        "/",
        f"/campaigns/{c}/",
        f"/campaigns/{c}/history/",
        f"/campaigns/{c}/chronicles/",
        f"/campaigns/{c}/statistics/",
        "/api/campaigns/",
        f"/api/campaigns/{c}/",
        f"/api/campaigns/{c}/houses/",
        f"/api/campaigns/{c}/board/",
        f"/api/campaigns/{c}/envelopes/",
        f"/api/campaigns/{c}/storylines/",
        f"/api/campaigns/{c}/save-slots/",
        f"/api/campaigns/{c}/games/",
        f"/api/campaigns/{c}/history/",
        f"/api/campaigns/{c}/statistics/",
    ]
    for house in campaign.houses.all():
        urls += [
            f"/campaigns/{c}/houses/{house.pk}/",
            f"/api/campaigns/{c}/houses/{house.pk}/",
            f"/api/campaigns/{c}/houses/{house.pk}/page/",
        ]
    for game in ChronicleGame.objects.filter(campaign=campaign):
        urls += [
            f"/campaigns/{c}/games/{game.number}/story/",
            f"/api/campaigns/{c}/games/{game.pk}/",
            f"/api/campaigns/{c}/games/{game.pk}/story/",
        ]
    for session in campaign.sessions.order_by("pk"):
        urls += [f"/play/s/{session.pk}/", f"/api/sessions/{session.pk}/", f"/api/sessions/{session.pk}/log/"]
    return urls


def normalised(text: str, campaign, user) -> str:
    """The page without what differs by construction: ids (in URLs and JSON), the user's name, the
    CSRF token."""
    text = text.replace(user.get_username(), "USER").replace("alice", "USER")
    for seat in Seat.objects.filter(session__campaign=campaign):
        text = text.replace(seat.token, "TOKEN")
    text = re.sub(r"(?<=/)\d+(?=[/?.\"'#])", "ID", text)
    text = re.sub(r'(id="[\w-]+-|value=")\d+"', r'\1ID"', text)
    text = re.sub(r"(#|session )\d+\b", r"\1ID", text)
    text = re.sub(r'"(id|\w+_id|campaign|house|session|pk)": ?\d+', r'"\1": ID', text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", text)
    text = re.sub(r"\bsession-\d+", "session-ID", text)  # a live stream's channel
    text = re.sub(r'(-session=")\d+"', r'\1ID"', text)
    text = re.sub(r"([?&](amp;)?k=)[\w-]+", r"\1KEY", text)  # a signed version check
    return re.sub(r"hx-headers=\'[^\']*\'", "HX", text)
