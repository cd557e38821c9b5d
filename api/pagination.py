from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 1_000_000


class ChroniclePagination(LimitOffsetPagination):
    """?limit=&offset= (default 50, at most 200); an absurd offset is an empty page, never a 500."""

    default_limit = 50
    max_limit = 200

    def get_offset(self, request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
