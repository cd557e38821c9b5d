"""The campaign's pages, one module per page area: campaigns.py (the list, a new campaign, the
campaign page), board.py, houses.py, chronicles.py, nights.py, corrections.py, history.py,
archive.py, members.py, story.py; form_pages.py holds what they share. Import the module you need."""
