"""Growth: what each page and each periodic job costs at 1,000 and at 10,000 matches.

The database is built the way the server writes it. Two matches of each game are played to
the end through the service layer between people, and two more half-way (asked, with
deadlines); then their rows (the match, its seats, its log, its snapshots, its notices) are
copied until the site holds the size asked for, 80% finished and 20% in play: in SQL, but
for the digests of each copy's log and its snapshots, which hold the players' names and are
worked out again by replaying the log (a process per core). Each copy has its own players,
from a pool of people that grows with the site, so that a player sits in about 20 matches
at any size, as on a site that grows by players; the copies made for the larger size get
people of their own, so the player the pages are read for has the same matches at both
sizes. A tenth of the players take a daily digest. Copies finish 11 minutes apart, and the
seats asked in them have deadlines 30 to 72 hours away. Then the database is vacuumed and
analysed (as autovacuum keeps it), the ratings are rebuilt and the first reminder tick
schedules the copied seats: both are one-offs, shown with the offline commands.

Pages are read with Django's test client in-process (medians of repeated requests); the
beat's jobs are called as the beat calls them (the deadline sweep with an enforcement that
does nothing, so that its one overdue seat stays overdue), each with the same small amount
due at both sizes: the seats of the matches played half-way, made due for a reminder or
overdue. The ratio is the 10,000-match figure over the 1,000-match one; `GET /ratings/` (a
redirect) does the same work at both sizes and shows how much the machine's load moved.

    uv run python -m bench.growth [--quick] [--sizes 1000 10000] [--seconds S] [--game SLUG]

The database is BENCH_GROWTH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/
pbm_growth), created and dropped by the run.
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import timedelta

from bench.common import games, median, ms, repeat, report, table
from bench.db import bench_database, clone, drop
from games.parallel import cores, in_processes

GROWTH_DATABASE_URL = os.environ.get(
    "BENCH_GROWTH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pbm_growth"
)
SIZES = (1000, 10000)
TEMPLATES = {"nieuwstad": 3, "new-england": 3, "blankenburg": 4}  # game: players
PLAYED_EACH = 2  # matches of each game played to the end, and as many left half-way
FINISHED_SHARE = 0.8
MATCHES_PER_PLAYER = 20
DIGEST_EVERY = 10  # one player in ten takes the daily digest
SPACING = timedelta(minutes=11)  # between the finishing times of two copies
MULTIPLIER = 7919  # spreads a copy's seats over the pool (a prime: a bijection mod the pool)

FIRST = (
    "Anna Bram Cor Daan Eva Femke Gijs Hanna Isa Jens Kees Lotte Maren Noor Otto Pien Quinten "
    "Roos Sven Tess Ugo Vera Wout Xander Yara Zoe Aart Bente Cas Dewi Esmee Floor Guus Hidde "
    "Ilse Joost Kiki Lars Mila Niels"
).split()
LAST = (
    "de Vries|Jansen|Bakker|Visser|Smit|Meijer|de Boer|Mulder|de Groot|Bos|Vos|Peters|Hendriks|"
    "van Leeuwen|Dekker|Brouwer|de Wit|Dijkstra|Smits|de Graaf|van der Meer|van der Linden|"
    "Kok|Jacobs|de Haan|Vermeulen|van den Berg|van Dijk|Schouten|van Beek|Willems|Hoekstra|"
    "Maas|Verhoeven|Koster|Prins|Blom|Huisman|Peeters|Kuipers"
).split("|")


def person_name(n: int) -> tuple[str, str]:
    first, last = FIRST[n % len(FIRST)], LAST[n // len(FIRST) % len(LAST)]
    rounds = n // (len(FIRST) * len(LAST))
    return first, f"{last} {rounds + 1}" if rounds else last


def add_players(start: int, count: int) -> None:
    """People `start` .. `start + count - 1` of the pool, every tenth on the daily digest."""
    from django.contrib.auth import get_user_model

    from players.models import NoticeMode, Preferences

    User = get_user_model()
    made = User.objects.bulk_create(
        User(
            username=f"growth-{n}@bench.invalid",
            email=f"growth-{n}@bench.invalid",
            first_name=person_name(n)[0],
            last_name=person_name(n)[1],
            password="!",  # no password: a bench account signs in with force_login
        )
        for n in range(start, start + count)
    )
    Preferences.objects.bulk_create(
        Preferences(user=user, mode=NoticeMode.DIGEST, digest_hour=n % 24)
        for n, user in enumerate(made, start)
        if n % DIGEST_EVERY == DIGEST_EVERY - 1
    )


def pool() -> list:
    from django.contrib.auth import get_user_model

    return list(get_user_model().objects.filter(username__startswith="growth-").order_by("pk"))


def play(match, *, until: int | None = None):
    """Each asked seat plays its bot's choice through the service layer, to the end or to
    `until` entries in the log."""
    from games import services
    from games.engine import event_rng, get_game
    from games.models import Match
    from games.selectors import load_state

    game = get_game(match.game_slug, match.rules_version)
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.is_over or not match.to_act or (until is not None and match.head_seq >= until):
            return match
        seat = match.to_act[0]
        move = game.bot_move(
            load_state(match), seat, event_rng(f"growth:{match.pk}", match.head_seq)
        )
        result = services.submit_move(match_id=match.pk, seat=seat, move=move, source="web")
        assert result.ok, result.message


def play_templates(people: list, templates: dict[str, int]) -> tuple[list, list]:
    """(finished, in play) matches played through the service layer between the first
    people of the pool; their notices marked sent, as the workers leave them."""
    from django.utils import timezone

    from games import services
    from notifications.models import Notification, Status

    finished, active = [], []
    for slug, players in templates.items():
        for n in range(PLAYED_EACH * 2):
            seated = people[n : n + players]
            match = services.create_match(
                creator=seated[0],
                game_slug=slug,
                players=players,
                invite_emails=[u.email for u in seated[1:]],
                seed=f"growth:{slug}:{n}",
                rated=True,
            )
            for user in seated[1:]:
                services.join_match(match_id=match.pk, user=user)
            if n < PLAYED_EACH:
                finished.append(play(match))
            else:
                length = sum(m.head_seq for m in finished if m.game_slug == slug) // PLAYED_EACH
                active.append(play(match, until=length // 2))
    Notification.objects.update(status=Status.SENT, sent_at=timezone.now())
    return finished, active


def columns(model, leave_out: tuple[str, ...]) -> list[str]:
    return [f.column for f in model._meta.concrete_fields if f.column not in leave_out]


def copy_matches(templates: list, *, first: int, count: int, people: tuple[int, int]) -> None:
    """Copies `first` .. `first + count - 1` of the templates (taken in turn), their seats
    held by people `people[0]` .. `people[0] + people[1] - 1` of the pool: rows copied in
    SQL, but for the digests of the logs and the snapshots, which hold the players' names
    and are worked out again for each copy (`chain_logs`)."""
    from django.db import connection

    from games.models import Match, Move, Seat
    from notifications.models import Notification

    base, span = people
    m_cols = columns(Match, ("id", "created_at", "started_at", "finished_at", "created_by_id"))
    m_cols.remove("head_digest")
    s_cols = columns(
        Seat,
        ("id", "match_id", "user_id", "display_name", "deadline_at", "waiting_since")
        + ("reminder_seq", "remind_at"),
    )
    v_cols = columns(Move, ("id", "match_id", "created_at", "digest"))
    n_cols = columns(
        Notification, ("id", "match_id", "user_id", "address", "dedupe_key", "message_id")
    )

    def listed(cols: list[str], alias: str = "") -> str:
        return ", ".join(f'{alias}"{c}"' for c in cols)

    # The pool index of seat `number` of copy `g`: spread, and distinct within a match.
    person = f"({base} + ((cm.g * cm.players + {{number}}) * {MULTIPLIER}) % {span})"
    shift = f"cm.g * interval '{int(SPACING.total_seconds())} seconds'"
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE growth_copies, growth_digests")
        cursor.execute(
            """
            INSERT INTO growth_copies
            SELECT g, t.id, t.player_count, nextval(pg_get_serial_sequence('games_match', 'id'))
            FROM generate_series(%s, %s) g
            JOIN games_match t ON t.id = (%s::bigint[])[1 + g %% %s]
            """,
            [first, first + count - 1, [t.pk for t in templates], len(templates)],
        )
        cursor.execute(
            f"""
            INSERT INTO games_match (id, {listed(m_cols)}, created_at, started_at, finished_at,
                                     created_by_id, head_digest)
            SELECT cm.id, {listed(m_cols, "m.")}, m.created_at - {shift},
                   m.started_at - {shift}, m.finished_at - {shift},
                   (SELECT id FROM growth_people WHERE n = {person.format(number=0)}), ''
            FROM growth_copies cm JOIN games_match m ON m.id = cm.template
            """
        )
        cursor.execute(
            f"""
            INSERT INTO games_seat (match_id, {listed(s_cols)}, user_id, display_name,
                                    deadline_at, waiting_since)
            SELECT cm.id, {listed(s_cols, "s.")}, p.id, p.name, due.at, due.at - interval '3 days'
            FROM growth_copies cm
            JOIN games_seat s ON s.match_id = cm.template
            JOIN growth_people p ON p.n = {person.format(number="s.number")}
            CROSS JOIN LATERAL (
                SELECT CASE WHEN s.deadline_at IS NULL THEN NULL
                ELSE now() + interval '30 hours'
                     + ((cm.g * 7 + s.number) % 4200) * interval '36 seconds' END AS at
            ) due
            """
        )
        cursor.execute(
            f"""
            INSERT INTO notifications_notification (match_id, {listed(n_cols)}, user_id,
                                                    address, dedupe_key, message_id)
            SELECT cm.id, {listed(n_cols, "x.")}, p.id, p.email, x.dedupe_key || ':' || cm.id,
                   x.message_id || '.' || cm.id
            FROM growth_copies cm
            JOIN notifications_notification x ON x.match_id = cm.template
            JOIN growth_people p ON p.n = {person.format(number="coalesce(x.seat, 0)")}
            """
        )
        cursor.execute("SELECT id, template FROM growth_copies ORDER BY id")
        copies = cursor.fetchall()
    chunks = [copies[n : n + LOG_CHUNK] for n in range(0, len(copies), LOG_CHUNK)]
    for _ in in_processes(chain_logs, chunks, cores()):
        pass
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO games_move (match_id, {listed(v_cols)}, created_at, digest)
            SELECT cm.id, {listed(v_cols, "v.")}, v.created_at - {shift}, d.digest
            FROM growth_copies cm
            JOIN games_move v ON v.match_id = cm.template
            JOIN growth_digests d ON d.match_id = cm.id AND d.seq = v.seq
            """
        )
        cursor.execute(
            """
            UPDATE games_match m SET head_digest = d.digest
            FROM growth_copies cm JOIN growth_digests d ON d.match_id = cm.id
            WHERE m.id = cm.id AND d.seq = m.head_seq
            """
        )
        cursor.execute("TRUNCATE growth_digests")


LOG_CHUNK = 50
_template_logs: dict[int, tuple] = {}


def chain_logs(copies: list[tuple[int, int]]) -> int:
    """In a worker: the digest of every entry of these copies' logs, replayed from their
    own players' names (into growth_digests), and their snapshots (into games_snapshot)."""
    from django.db import connection
    from psycopg.types.json import Jsonb

    from games.engine import copy_state
    from games.engine.digest import chain_digest
    from games.models import Match, Seat
    from games.replay import LoggedMove, apply_logged, initial_digest, initial_state

    names: dict[int, list[str]] = {}
    for match_id, name in (
        Seat.objects.filter(match_id__in=[c for c, _ in copies])
        .order_by("match_id", "number")
        .values_list("match_id", "display_name")
    ):
        names.setdefault(match_id, []).append(name)
    digests, snapshots = [], []
    for copy_id, template_id in copies:
        if template_id not in _template_logs:
            template = Match.objects.get(pk=template_id)
            log = list(template.moves.order_by("seq").values_list("seq", "seat", "kind", "payload"))
            kept = set(template.snapshots.values_list("seq", flat=True))
            _template_logs[template_id] = (template, log, kept)
        template, log, kept = _template_logs[template_id]
        game = template.game
        state = initial_state(game, names[copy_id], template.options, template.seed)
        digest = initial_digest(state)
        for seq, seat, kind, payload in log:
            entry = LoggedMove(seq, seat, kind, payload)
            state = apply_logged(game, state, entry, template.seed, trusted=True)
            digest = chain_digest(digest, state)
            digests.append((copy_id, seq, digest))
            if seq in kept:
                snapshots.append((copy_id, seq, Jsonb(copy_state(state)), digest))
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy("COPY growth_digests (match_id, seq, digest) FROM STDIN") as copy:
            for row in digests:
                copy.write_row(row)
        with raw.copy("COPY games_snapshot (match_id, seq, state, digest) FROM STDIN") as copy:
            for row in snapshots:
                copy.write_row(row)
    return len(digests)


def helper_tables() -> None:
    """The bench's own tables: the copies being made, their digests, and the pool of people
    by number (regular tables: the workers that chain the logs read and write them)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE UNLOGGED TABLE growth_copies "
            "(g int, template bigint, players int, id bigint PRIMARY KEY)"
        )
        cursor.execute(
            "CREATE UNLOGGED TABLE growth_digests (match_id bigint, seq int, digest text)"
        )
        cursor.execute("CREATE INDEX ON growth_digests (match_id, seq)")
        cursor.execute(
            "CREATE UNLOGGED TABLE growth_people (n int PRIMARY KEY, id int, email text, name text)"
        )


def number_people() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE growth_people")
        cursor.execute(
            "INSERT INTO growth_people SELECT row_number() OVER (ORDER BY id) - 1, id, email, "
            "trim(first_name || ' ' || last_name) FROM auth_user "
            "WHERE username LIKE 'growth-%'"
        )


def vacuum() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


class Site:
    """The matches made so far: the played ones, and how many copies of each kind."""

    def __init__(self, finished: list, active: list):
        self.finished, self.active = finished, active
        self.made = {"finished": len(finished), "active": len(active)}
        self.copies = 0

    def grow(self, size: int, people: tuple[int, int]) -> None:
        """Copies until the site holds `size` matches, 80% of them finished."""
        wanted = {"finished": round(size * FINISHED_SHARE)}
        wanted["active"] = size - wanted["finished"]
        for kind, templates in (("finished", self.finished), ("active", self.active)):
            count = wanted[kind] - self.made[kind]
            copy_matches(templates, first=self.copies + 1, count=count, people=people)
            self.copies += count
            self.made[kind] += count


def make_due(active: list) -> None:
    """The played matches' asked seats: one overdue, the others with a reminder due (their
    deadline 23 hours away), at both sizes alike."""
    from django.utils import timezone

    from games.models import Seat
    from notifications.models import Kind, Notification

    now = timezone.now()
    asked = list(Seat.objects.filter(match__in=active, deadline_at__isnull=False).order_by("pk"))
    for n, seat in enumerate(asked):
        seat.deadline_at = now - timedelta(minutes=1) if n == 0 else now + timedelta(hours=23)
        seat.waiting_since = now - timedelta(days=2)
        seat.reminder_seq = None
    Seat.objects.bulk_update(asked, ["deadline_at", "waiting_since", "reminder_seq"])
    Notification.objects.filter(kind=Kind.REMINDER).delete()


ROUNDS = 4  # each figure is measured in turns, one size then the other, this many times


def on(database: str) -> None:
    """Point Django's connection at one of the two sizes' databases."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = database


def probes(size: int, site: Site) -> dict[str, tuple]:
    """What is measured on the database in use, as label: (prepare or None, the call timed,
    whether the call is timed once after each preparing)."""
    from django.core.cache import cache
    from django.test import Client
    from django.utils import timezone

    from community import selectors
    from games import clock
    from notifications import digest, outbox, reminders
    from replies import inbound

    in_play, over = site.active[0], site.finished[0]
    reader = in_play.seats.order_by("number").first().user  # sits in about 20 matches
    web = Client()
    web.force_login(reader)
    name = f"{reader.first_name} {reader.last_name}"
    middle = selectors.archive(
        selectors.ArchiveFilters(), page=max(1, round(size * FINISHED_SHARE) // 50)
    )
    pages = {
        "GET /ratings/ (a redirect: the machine's drift)": "/ratings/",
        "GET /archive/": "/archive/",
        "GET /archive/?older= (the middle page, by cursor)": f"/archive/?older={middle.older}",
        "GET /archive/?page= (the middle page, by number)": f"/archive/?page={middle.number}",
        "GET /archive/?player=": f"/archive/?player={name}",
        "GET /api/v1/archive (counts the pages)": "/api/v1/archive",
        "GET /api/v1/archive?cursor= (the middle page)": f"/api/v1/archive?cursor={middle.older}",
        "GET /api/v1/archive?player=": f"/api/v1/archive?player={name}",
        "GET /lobby/": "/lobby/",
        f"GET /ratings/{in_play.game_slug}/": f"/ratings/{in_play.game_slug}/",
        "GET /players/<id>/": f"/players/{reader.pk}/",
        "GET /matches/<id>/ (in play, as its player)": f"/matches/{in_play.pk}/",
        "GET /matches/<id>/replay/ (finished)": f"/matches/{over.pk}/replay/",
    }

    def get(url: str):
        if url.startswith("/api/"):
            cache.clear()  # the API's rate limit counts here: the bench is no client to limit
        return web.get(url)

    measured: dict[str, tuple] = {}
    for label, url in pages.items():
        status = get(url).status_code
        assert status == (302 if url == "/ratings/" else 200), (url, status)
        measured[label] = (None, lambda url=url: get(url), False)

    def all_scheduled() -> None:
        make_due(site.active)
        reminders.send_reminders()

    due = len(site.active) * max(m.player_count for m in site.active)
    measured["beat: send_reminders, nothing due"] = (all_scheduled, reminders.send_reminders, False)
    measured[f"beat: send_reminders, up to {due} due"] = (
        lambda: make_due(site.active),
        reminders.send_reminders,
        True,
    )
    measured["beat: sweep_deadlines, 1 overdue"] = (
        lambda: make_due(site.active),
        lambda: clock.sweep_deadlines(enforce=lambda *seat: None),
        False,
    )
    measured["beat: sweep_outbox"] = (
        None,
        lambda: (inbound.reprocess_stuck(timezone.now()), outbox.sweep()),
        False,
    )
    measured["beat: send_digests"] = (None, digest.send_digests, False)
    return measured


def measure(sizes: tuple, databases: dict[int, str], *, seconds: float, site: Site) -> dict:
    """Every probe on both sizes, in turns (`ROUNDS`), so that the load of a shared machine
    falls on both alike: the median of each."""
    measured = {}
    for size in sizes:
        on(databases[size])
        measured[size] = probes(size, site)
    times: dict[int, dict[str, list[float]]] = {size: {} for size in sizes}
    for _ in range(ROUNDS):
        for size in sizes:
            on(databases[size])
            for label, (prepare, call, once) in measured[size].items():
                spent = times[size].setdefault(label, [])
                if once:
                    for _ in range(2):
                        prepare()
                        started = time.perf_counter()
                        call()
                        spent.append(time.perf_counter() - started)
                    continue
                if prepare:
                    prepare()
                spent += repeat(call, seconds=seconds / ROUNDS)
    return {size: {label: median(t) for label, t in times[size].items()} for size in sizes}


def database_name() -> str:
    return GROWTH_DATABASE_URL.rsplit("/", 1)[1]


def settle(figures: dict) -> None:
    """What follows the copying, as a server would have done it on the way: the ratings
    rebuilt, and the reminder schedules of the copied seats worked out."""
    from notifications import reminders

    figures["offline: rebuild_ratings --jobs 2"] = command("rebuild_ratings", "--jobs", "2")
    started = time.perf_counter()
    reminders.send_reminders(budget=float("inf"))
    once = "one-off: the first send_reminders after copying (schedules the copies)"
    figures[once] = time.perf_counter() - started


def verify(figures: dict, *, whole: bool) -> None:
    """verify_log over every match in one process and in two (`whole`), else a run over
    every match recorded as done (not timed: it costs as the matches do); then `--since`
    with nothing written since."""
    from django.utils import timezone

    from games import log_checks

    if whole:
        figures["offline: verify_log --jobs 1"] = command("verify_log", "--jobs", "1")
        figures["offline: verify_log --jobs 2"] = command("verify_log", "--jobs", "2")
    else:
        done = log_checks.begin(whole=True, now=timezone.now())
        done.finished_at = timezone.now()
        done.save()
    since = "offline: verify_log --since, nothing written since"
    figures[since] = command("verify_log", "--since")


def command(name: str, *args: str) -> float:
    """How long `manage.py name args` takes, its output thrown away."""
    from django.core.management import call_command

    started = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        call_command(name, *args, stdout=quiet, stderr=quiet)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the smoke test")
    parser.add_argument("--sizes", type=int, nargs=2, default=None, help="two sizes")
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure")
    parser.add_argument("--game", action="append", help="only this game's matches (repeatable)")
    args = parser.parse_args(argv)
    sizes = args.sizes or ((40, 80) if args.quick else SIZES)
    seconds = 0.2 if args.quick else args.seconds
    templates = {
        game.slug: TEMPLATES.get(game.slug, game.min_players)
        for game in games()
        if game.slug in (args.game or TEMPLATES)
    }
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-" + os.urandom(24).hex())
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    small, large = sizes
    small_url = GROWTH_DATABASE_URL.rsplit("/", 1)[0] + f"/{database_name()}_small"
    offline: dict[int, dict[str, float]] = {small: {}, large: {}}
    building = {}
    try:
        with bench_database(url=GROWTH_DATABASE_URL):
            from django.db import connections

            seats = sum(templates.values()) / len(templates)
            site, players = None, 0
            for size in sizes:
                started = time.perf_counter()
                wanted = max(round(size * seats / MATCHES_PER_PLAYER), 2 * max(templates.values()))
                add_players(players, wanted - players)
                if site is None:
                    helper_tables()
                number_people()
                if site is None:
                    site = Site(*play_templates(pool(), templates))
                # The copies for this size get people of their own.
                site.grow(size, people=(players, wanted - players))
                players = wanted
                vacuum()
                building[size] = time.perf_counter() - started
                settle(offline[size])
                if size == small:  # kept as it is, to be measured beside the larger size
                    connections.close_all()
                    clone(GROWTH_DATABASE_URL, small_url)
            databases = {small: small_url.rsplit("/", 1)[1], large: database_name()}
            results = measure(sizes, databases, seconds=seconds, site=site)
            for size in sizes:
                on(databases[size])
                verify(offline[size], whole=size == small)
                results[size].update(offline[size])
            connections.close_all()
    finally:
        drop(small_url)
    rows = []
    for label, before in results[small].items():
        after = results[large].get(label)
        if after is None:
            rows.append([label, ms(before), "(not run)", ""])
        else:
            rows.append([label, ms(before), ms(after), f"{after / before:.2f}"])
    text = table(["what", f"{small:,} matches, ms", f"{large:,} matches, ms", "ratio"], rows)
    text += f"\n\nBuilding: {building[small]:.0f} s, then {building[large]:.0f} s more."
    report("growth", "Growth: pages and periodic jobs at two sizes", text, {"sizes": results})
    return results


if __name__ == "__main__":
    main()
