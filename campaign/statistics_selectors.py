"""Reads of a campaign over months by House and for the whole realm: a page per House (its ledger,
stickers, achievements, results and council figures) and the realm's statistics, both from the
records and from the stories of the nights (story_selectors.py), read once for every night."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext

from campaign.models import (
    RESOURCE_ROWS,
    Campaign,
    CampaignEvent,
    ChronicleSticker,
    GameEnd,
    House,
)
from campaign.selectors import game_results_since
from campaign.story_selectors import (
    END_WORDS,
    FIGURES,
    SIDES,
    night_stories,
    row_was,
    row_words,
    seat_names,
    seat_of,
)
from games.engines.kings_dilemma.story import house_figures

# ---- a House over the campaign --------------------------------------------------------------------


def house_page(*, campaign: Campaign, house: House) -> dict:
    """Everything about one House across the campaign."""
    ledger = list(house.ledger.select_related("game").order_by("created_at", "id"))
    totals = {"prestige": 0, "crave": 0}
    for entry in ledger:
        totals[entry.kind] += entry.amount
    stickers = list(house.stickers.select_related("game", "signer").order_by("row", "slot", "number"))
    rows = []
    for row in RESOURCE_ROWS:
        mine = [s for s in stickers if s.row == row]
        rows.append(
            {
                "row": row,
                "label": row_words(row),
                "positive": [s for s in mine if s.positive],
                "negative": [s for s in mine if not s.positive],
            }
        )
    marks = list(
        CampaignEvent.objects.filter(
            campaign=campaign, house=house, kind__in=["achievement_marked", "achievement_unlocked"]
        )
        .select_related("game")
        .order_by("created_at", "id")
    )
    stories = night_stories(campaign=campaign)
    nights = []
    overall = dict.fromkeys(FIGURES, 0)
    results = game_results_since(campaign=campaign, house=house)
    for game in campaign.games.order_by("number"):
        story = stories.get(game.pk)
        seat = seat_of(story, house) if story else None
        recorded = next(iter(results.get(game.pk, {}).get("rows", [])), None)
        score = recorded["score"] if recorded else None
        if seat is None and score is None:
            continue
        figures = house_figures(story, seat) if seat is not None and story is not None else None
        if figures:
            for key in FIGURES:
                overall[key] += figures[key]
        played = next((r for r in (story or {}).get("ranking") or [] if r["house"] == house.pk), None)
        was = row_was(played, recorded) if recorded and story and story["ranking"] else {}
        nights.append(
            {
                "game": game,
                "score": score,
                "figures": figures,
                "was": was,
                "corrected_on": recorded["since"] if was and recorded else None,
            }
        )
    return {
        "house": house,
        "prestige": totals["prestige"],
        "crave": totals["crave"],
        "ledger": ledger,
        "sticker_rows": rows,
        "stickers_signed": len(stickers),
        "achievements": list(house.achievements.select_related("unlocked_in").order_by("kind", "id")),
        "marks": marks,
        "nights": nights,
        "figures": overall,
    }


# ---- the realm ---------------------------------------------------------------------------------------


def realm_statistics(*, campaign: Campaign) -> dict:
    """Resources after each night, how each reign ended, who signed most in each row, the Dilemmas
    met (side chosen, by what Power), the Envelopes opened and by whom, each House's council figures."""
    houses = list(campaign.houses.order_by("number"))
    by_pk = {h.pk: h for h in houses}
    games = list(campaign.games.order_by("number"))
    stories = night_stories(campaign=campaign)
    signed = Counter(
        (row["row"], row["signer"])
        for row in ChronicleSticker.objects.filter(campaign=campaign).values("row", "signer")
    )
    rows = []
    for row in RESOURCE_ROWS:
        counts = sorted(
            ((by_pk[signer], n) for (r, signer), n in signed.items() if r == row and signer in by_pk),
            key=lambda pair: (-pair[1], pair[0].number),
        )
        best = counts[0][1] if counts else 0
        rows.append(
            {
                "row": row,
                "label": row_words(row),
                "counts": [{"house": h, "count": n} for h, n in counts],
                "most": [h for h, n in counts if n == best],
                "total": sum(n for _, n in counts),
            }
        )
    dilemmas = []
    council = {h.pk: dict.fromkeys(FIGURES, 0) for h in houses}
    for game in games:
        story = stories.get(game.pk)
        if story is None:
            continue
        names = seat_names(story, by_pk)
        for dilemma in story["dilemmas"]:
            if dilemma["side"] is None:
                continue
            dilemmas.append(
                {
                    "game": game,
                    "number": dilemma["number"],
                    "title": dilemma["title"],
                    "side": dilemma["side"],
                    "side_words": str(SIDES[dilemma["side"]]),
                    "aye": dilemma["aye"],
                    "nay": dilemma["nay"],
                    "power": dilemma[dilemma["side"]],
                    "undecided": dilemma["undecided"],
                    "carried_by": [names[s] for s in dilemma["carried_by"]],
                }
            )
        for seat in story["houses"]:
            if seat["house"] in council:
                for key, value in house_figures(story, seat["seat"]).items():
                    council[seat["house"]][key] += value
    reigns = Counter(g.end for g in games if g.end)
    return {
        "houses": houses,
        "nights": [
            {
                "game": g,
                "end_words": str(END_WORDS.get(g.end, gettext("Not recorded yet"))),
                "resources": [(g.resources_final or {}).get(row) for row in RESOURCE_ROWS],
            }
            for g in games
        ],
        "resource_rows": [row_words(r) for r in RESOURCE_ROWS],
        "reigns": [
            {"end": end, "words": str(END_WORDS[end]), "count": reigns[end]} for end in GameEnd.values
        ],
        "sticker_rows": rows,
        "dilemmas": dilemmas,
        "envelopes": list(campaign.envelopes.select_related("opened_by", "game").order_by("number")),
        "council": [{"house": h, **council[h.pk]} for h in houses],
    }
