"""The messages and commands of chat services: Discord's slash commands
(:mod:`.commands`), a roll or an answer of the API made into a message a
channel shows within the service's limits, a webhook's body. Pure: it sends
nothing and keeps nothing (the table's server does, :mod:`fudgedice.server`)."""
