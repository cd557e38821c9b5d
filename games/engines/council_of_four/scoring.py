"""The end of the game: Reward tiles, the Nobility Track (5 and 2 VP with the rulebook's ties), the
most Permits (3 VP), then the winner (ties broken by Servants plus Politics cards)."""

from games.engines.council_of_four.board import MOST_PERMITS_VP, NOBILITY_FIRST_VP, NOBILITY_SECOND_VP


def nobility_points(positions: list[int]) -> list[int]:
    """5 VP to the furthest ahead (to each of them when tied, and then nobody scores second place),
    otherwise 2 VP to the second furthest (to each of them when tied)."""
    best = max(positions)
    first = [i for i, p in enumerate(positions) if p == best]
    points = [0] * len(positions)
    for i in first:
        points[i] = NOBILITY_FIRST_VP
    rest = [p for p in positions if p < best]
    if len(first) == 1 and rest:
        second = max(rest)
        for i, p in enumerate(positions):
            if p == second:
                points[i] = NOBILITY_SECOND_VP
    return points


def permit_points(counts: list[int]) -> list[int]:
    """3 VP to the player with the most Permit tiles (face up or down); tied players each score 3,
    and nobody scores with no Permit at all."""
    most = max(counts)
    return [MOST_PERMITS_VP if most > 0 and c == most else 0 for c in counts]


def finish(state: dict) -> None:
    seats = state["seats"]
    track = [s["victory"] for s in seats]
    rewards = [sum(r["victory_points"] for r in s["rewards"]) for s in seats]
    nobility = nobility_points([s["nobility"] for s in seats])
    permits = permit_points([len(s["permits"]) for s in seats])
    scores = [sum(parts) for parts in zip(track, rewards, nobility, permits, strict=True)]
    tiebreak = [s["servants"] + len(s["hand"]) for s in seats]
    for seat, score in zip(seats, scores, strict=True):
        seat["victory"] = score
    key = [(scores[i], tiebreak[i]) for i in range(len(seats))]
    ranking = sorted(range(len(seats)), key=lambda i: (-scores[i], -tiebreak[i], i))
    positions = [1 + sum(1 for j in range(len(seats)) if key[j] > key[i]) for i in range(len(seats))]
    state["over"] = True
    state["phase"] = "over"
    state["pending"] = []
    state["result"] = {
        "winners": [i for i in ranking if positions[i] == 1],
        "scores": scores,
        "ranking": ranking,
        "positions": positions,
        "tiebreak": tiebreak,
        "breakdown": [
            {
                "track": track[i],
                "rewards": rewards[i],
                "nobility": nobility[i],
                "permits": permits[i],
                "total": scores[i],
            }
            for i in range(len(seats))
        ],
    }
