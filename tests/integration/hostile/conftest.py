from tests.integration.api.conftest import anonymous, api, harald, host, stranger, token_client  # noqa: F401
