"""The table in a Discord channel (docs/discord.md): slash commands delivered
as signed HTTP requests to ``POST /discord/interactions``, each channel's room,
and the messages the table posts there."""
