"""OpenAPI naming: one view per operation, so the operation id is the view's name
(``StickerAttachApi`` -> ``sticker_attach``), and each view's nested InputSerializer/OutputSerializer
becomes a component named after its view (``StickerAttachApi.InputSerializer`` ->
``StickerAttachRequest``), so the many nested classes of the same name never collide."""

import re

from drf_spectacular.openapi import AutoSchema

NESTED = {"InputSerializer", "OutputSerializer"}


class ChronicleAutoSchema(AutoSchema):
    def get_operation_id(self) -> str:
        name = type(self.view).__name__.removesuffix("Api")
        return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()

    def get_serializer_name(self, serializer, direction) -> str:
        parts = type(serializer).__qualname__.split(".")
        names = [p.removesuffix("Serializer").removesuffix("Api") for p in parts if p not in NESTED]
        return "".join(names) or super().get_serializer_name(serializer, direction)
