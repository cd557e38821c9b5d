"""One check shared by the API's JSON parser and the campaign archive reader: how deep a decoded
JSON value nests (hostile input must not set the cost of a request)."""


def json_depth_exceeds(value, limit: int) -> bool:
    """True if ``value`` nests lists and objects deeper than ``limit`` (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
