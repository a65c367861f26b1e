"""`tablectl scoreboard`: the board beside the table (docs/scoreboard.md). board.py folds the
journal into what the page shows, stream.py follows the journal on a thread and keeps the
server-sent events, app.py and server.py serve it (Starlette + uvicorn), static/ is the page."""
