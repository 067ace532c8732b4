"""What the service layer tells the rest of the site: Django signals, sent inside the
transaction that appends to the log, so the rows a receiver writes (the notifications app's
outbox) commit or roll back with the moves, and nothing is lost between the two. Anything
slow a receiver starts waits for the commit (`transaction.on_commit`).

Each event carries its own data: the match, the seats the service locked (with their
players and preferences) and the players' calendars it read (`players.calendar.Calendars`),
so a receiver reads nothing the move already read; those a move sends also carry `state`,
the position it reached. The games app imports no receiver.
"""

from django.dispatch import Signal

# match, emails, inviter: seats were kept for these addresses.
players_invited = Signal()
# match, seats, calendars: the match has begun.
match_started = Signal()
# match, seats, calendars, moves, newly_to_act: moves were appended; `newly_to_act` are the
# seats that now owe a decision.
moves_appended = Signal()
# match, seats, calendars: the match is over (finished or abandoned).
match_finished = Signal()
# match, message, seats: a player wrote on the match's board (games.chat).
chat_posted = Signal()
# A timeout due now waits (games.clock.reprieve): a vacation day was spent from the player's
# bank, or they are warned that the next one forfeits their seat. With `match`, `seat`,
# `reprieve`.
timeout_held = Signal()
# challenge, what ("made", "accepted", "declined", "cancelled"): a challenge changed
# (games.challenges), inside its transaction.
challenge_changed = Signal()
