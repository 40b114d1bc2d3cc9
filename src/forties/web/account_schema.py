"""The tables an account's data lives in, besides ``accounts`` and ``sessions``
(``web.accounts``): its passkeys and the keys that get it back (``web.passkeys``), the
seats it sat in and its finished games, statistics and ratings (``web.games``), and the
players it follows, blocks and invites (``web.regulars``), and the clubs it belongs to
with their invite links, calendars and seasons (``web.clubs``). Their migrations are 0005
to 0009. Accounts are named by ``accounts.id``; no foreign key ties these tables together, so
that a table, an account and its games may be kept and removed each on its own (a deleted
account's games stay, its name shown as "a former player").
"""

from __future__ import annotations

import sqlalchemy as sa

from .store import meta

# ----- signing in (0005) -----------------------------------------------------------------

# a passkey: its credential id (base64url), the account, its public key (COSE, base64url),
# the user handle its authenticator keeps for the account (base64url: the same for every
# passkey of an account, so that a device holds one passkey of it)
credentials_t = sa.Table(
    "credentials", meta,
    sa.Column("id", sa.String(400), primary_key=True),
    sa.Column("account_id", sa.String(24)),
    sa.Column("user_handle", sa.String(100)),
    sa.Column("public_key", sa.Text),
    sa.Column("sign_count", sa.BigInteger),
    sa.Column("transports", sa.String(200)),
    sa.Column("label", sa.String(80)),
    sa.Column("created", sa.Float),
    sa.Column("last_used", sa.Float),
)
# a challenge given to a browser, used once and short-lived: signing up, signing in,
# adding a device (its key kept hashed; ``body``: what the answer must match, as JSON)
challenges_t = sa.Table(
    "challenges", meta,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(16)),
    sa.Column("account_id", sa.String(24)),
    sa.Column("body", sa.Text),
    sa.Column("created", sa.Float),
)
# printed recovery codes (hashed), each used once
recovery_t = sa.Table(
    "recovery_codes", meta,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(24)),
    sa.Column("created", sa.Float),
    sa.Column("used", sa.Float),
)

# ----- games (0006) ------------------------------------------------------------------------

# which account sat in a seat (a guest's seat has no row)
seat_accounts_t = sa.Table(
    "seat_accounts", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(24)),
    sa.Column("at", sa.Float),
)
# a finished game, indexed once (its row is the mark that it was): the family, whether it
# was rated and counted (and why not), the seats as they were (JSON), the scores (JSON)
games_t = sa.Table(
    "games", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("family", sa.String(40)),
    sa.Column("preset", sa.String(40)),
    sa.Column("finished", sa.Float),
    sa.Column("rated", sa.Boolean),
    sa.Column("counted", sa.Boolean),
    sa.Column("why", sa.String(300)),
    sa.Column("hands", sa.Integer),
    sa.Column("seats", sa.Text),
    sa.Column("result", sa.Text),
)
# each account's place in a finished game: its seat, side, partner(s), whether it won, its
# part of the game's statistics (JSON), its rating before and after (rated games)
game_players_t = sa.Table(
    "game_players", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(24)),
    sa.Column("family", sa.String(40)),
    sa.Column("finished", sa.Float),
    sa.Column("side", sa.Integer),
    sa.Column("partners", sa.String(200)),  # the partners' account ids, space-separated
    sa.Column("won", sa.Boolean),
    sa.Column("stats", sa.Text),
    sa.Column("rating_before", sa.Float),
    sa.Column("rating_after", sa.Float),
)
# running totals of the statistics: an account's in a family (partner ""), and a
# partnership's (the partner's account id), added to once per finished game
account_stats_t = sa.Table(
    "account_stats", meta,
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("family", sa.String(40), primary_key=True),
    sa.Column("partner_id", sa.String(24), primary_key=True),
    sa.Column("games", sa.Integer),
    sa.Column("body", sa.Text),
    sa.Column("updated", sa.Float),
)
# a rating: an account's (subject = its id) or a partnership's (subject = the two ids,
# sorted, joined by "+") in a family
ratings_t = sa.Table(
    "ratings", meta,
    sa.Column("subject", sa.String(60), primary_key=True),
    sa.Column("family", sa.String(40), primary_key=True),
    sa.Column("mu", sa.Float),
    sa.Column("sigma", sa.Float),
    sa.Column("games", sa.Integer),
    sa.Column("last_rated", sa.Float),
)
rating_history_t = sa.Table(
    "rating_history", meta,
    sa.Column("subject", sa.String(60), primary_key=True),
    sa.Column("family", sa.String(40), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.Float),
    sa.Column("mu", sa.Float),
    sa.Column("sigma", sa.Float),
    sa.Column("shown", sa.Float),
)
# games past the limits on repeated pairings, for the operator to look at
rating_flags_t = sa.Table(
    "rating_flags", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.Float),
    sa.Column("accounts", sa.String(300)),
    sa.Column("why", sa.String(300)),
)

# ----- regulars (0007) ---------------------------------------------------------------------

follows_t = sa.Table(
    "follows", meta,
    sa.Column("follower", sa.String(24), primary_key=True),
    sa.Column("followed", sa.String(24), primary_key=True),
    sa.Column("at", sa.Float),
)
blocks_t = sa.Table(
    "blocks", meta,
    sa.Column("blocker", sa.String(24), primary_key=True),
    sa.Column("blocked", sa.String(24), primary_key=True),
    sa.Column("at", sa.Float),
)
# an invitation to a seat, shown on the invited account's home page until answered
account_invites_t = sa.Table(
    "account_invites", meta,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("from_account", sa.String(24)),
    sa.Column("to_account", sa.String(24)),
    sa.Column("table_id", sa.String(32)),
    sa.Column("seat", sa.Integer),
    sa.Column("created", sa.Float),
    sa.Column("answered", sa.String(16)),
)

# ----- clubs (0009) -----------------------------------------------------------------------

# a club: its name, its house rules (a preset and its options, JSON: what a table or an
# evening made from the club starts from), who made it (cleared when that account goes)
clubs_t = sa.Table(
    "clubs", meta,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(80)),
    sa.Column("preset", sa.String(40)),
    sa.Column("options", sa.Text),
    sa.Column("created", sa.Float),
    sa.Column("created_by", sa.String(24)),
)
# an account's place in a club: "member" or "director"
club_members_t = sa.Table(
    "club_members", meta,
    sa.Column("club", sa.String(24), primary_key=True),
    sa.Column("account_id", sa.String(24), primary_key=True),
    sa.Column("role", sa.String(16)),
    sa.Column("joined", sa.Float),
)
# a club's invite link: its key kept hashed, the director who made it, until when it
# works and how many accounts may still join by it
club_invites_t = sa.Table(
    "club_invites", meta,
    sa.Column("key_hash", sa.String(64), primary_key=True),
    sa.Column("club", sa.String(24)),
    sa.Column("account_id", sa.String(24)),
    sa.Column("created", sa.Float),
    sa.Column("expires", sa.Float),
    sa.Column("uses", sa.Integer),
    sa.Column("max_uses", sa.Integer),
)
# the club's calendar: an evening in the hall ("hall") or a duplicate session
# ("duplicate"), by its id (``ref``), its title, when (UTC, seconds) and where ("hall"
# or "online")
club_events_t = sa.Table(
    "club_events", meta,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("club", sa.String(24)),
    sa.Column("kind", sa.String(16)),
    sa.Column("ref", sa.String(40)),
    sa.Column("title", sa.String(200)),
    sa.Column("at", sa.Float),
    sa.Column("place", sa.String(16)),
    sa.Column("created", sa.Float),
)
# a club's season: its evenings from ``starts`` to ``ends`` (dates, both included) added
# up by ``rule`` (JSON: {"best": N} counts each player's best N evenings, {"best": null}
# every one)
club_seasons_t = sa.Table(
    "club_seasons", meta,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("club", sa.String(24)),
    sa.Column("name", sa.String(80)),
    sa.Column("starts", sa.Date),
    sa.Column("ends", sa.Date),
    sa.Column("rule", sa.Text),
    sa.Column("created", sa.Float),
    sa.Column("zone", sa.String(64)),  # (the IANA time zone its days are read in; NULL: UTC)
)

__all__ = ["account_invites_t", "account_stats_t", "blocks_t", "challenges_t",
           "club_events_t", "club_invites_t", "club_members_t", "club_seasons_t",
           "clubs_t", "credentials_t", "follows_t", "game_players_t", "games_t", "rating_flags_t",
           "rating_history_t", "ratings_t", "recovery_t", "seat_accounts_t"]
