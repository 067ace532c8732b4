"""Partners and shares are named the way people name them (games.engine.names): full name,
first name, surname, a unique prefix, the seat's colour, with or without accents, in any
script; a name that fits nobody, or two players, is refused with the list of players."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import ParseError, event_rng
from games.engine.names import FORMS, find_players
from games.rules.nieuwstad import GAME
from games.rules.nieuwstad.data import COLOURS

from .helpers import clear, give, skip_opening

TABLES = {
    "cyrillic": ["Frank de Vries", "Оксана Шевченко", "Иван Петров", "Bob Smith"],
    "greek": ["Frank de Vries", "Γιώργος Παπαδόπουλος", "Ελένη Νικολάου", "Bob Smith"],
    "cjk": ["Frank de Vries", "王 芳", "山田 太郎", "Bob Smith"],
    "arabic": ["Frank de Vries", "محمد العلي", "فاطمة الزهراء", "Bob Smith"],
    "accents": ["Frank de Vries", "Chloé Dubois", "Zoë Ångström", "Bob Smith"],
}
# How each table's seat 1 and seat 2 may be named: full name, first name, a prefix.
NAMED = {
    "cyrillic": [("Оксана Шевченко", "Оксана", "Окс"), ("Иван Петров", "Иван", "Пет")],
    "greek": [("Γιώργος Παπαδόπουλος", "Γιώργος", "Γιώ"), ("Ελένη Νικολάου", "ελενη", "Ελ")],
    "cjk": [("王 芳", "王", "王"), ("山田 太郎", "山田", "山")],
    "arabic": [("محمد العلي", "محمد", "محم"), ("فاطمة الزهراء", "فاطمة", "فاط")],
    "accents": [("Chloé Dubois", "Chloe", "Chl"), ("Zoë Ångström", "zoe", "Ång")],
}


def table_of(names: list[str]) -> dict:
    """Seat 0 has chosen the Master Builder; everyone can pay; A6, C5 and D3 are cleared."""
    options = GAME.validate_options(len(names), {})
    state = skip_opening(GAME.setup(names, options, event_rng("names", 0)))
    clear(state, "A6", "C5", "D3")
    for seat in range(len(names)):
        give(state, seat, guilders=9, wood=9)
    return GAME.apply(state, 0, GAME.parse("master builder", state, 0), event_rng("names", 1))


def partners(state: dict, command: str) -> list[int]:
    return GAME.parse(command, state, 0)["seats"][1:]


@pytest.mark.parametrize("script", sorted(TABLES))
@pytest.mark.parametrize("way", [0, 1, 2], ids=["full name", "first name", "prefix"])
def test_a_partner_by_full_name_first_name_and_prefix(script, way):
    state = table_of(TABLES[script])
    first, second = NAMED[script][0][way], NAMED[script][1][way]
    assert partners(state, f"propose well at A6 with {first}") == [1]
    assert partners(state, f"propose well at A6 with {second}") == [2]
    assert partners(state, f"propose well at A6 with {second}, {first}") == [1, 2]
    assert partners(state, f"propose well at A6 with {first} and Bob") == [1, 3]


def test_the_issues_commands():
    state = table_of(["Frank de Vries", "Оксана Шевченко", "Chloé Dubois", "Bob Smith"])
    assert partners(state, "propose well at A6 with Оксана Шевченко") == [1]
    assert partners(state, "propose watchtower at C5 facing north with Chloé, Bob") == [2, 3]
    with pytest.raises(ParseError) as refused:  # Ivan plays at another table
        GAME.parse("propose well at A6 with Иван Петров, Frank de Vries", state, 0)
    assert "Оксана Шевченко, Chloé Dubois, Bob Smith" in refused.value.message


def test_colours_accents_and_transliteration():
    state = table_of(["Frank de Vries", "Оксана Шевченко", "Chloé Dubois", "Bob Smith"])
    assert [COLOURS[s] for s in (1, 2, 3)] == ["red", "orange", "blue"]
    assert partners(state, "propose well at A6 with red, blue") == [1, 3]
    assert partners(state, "propose well at A6 with CHLOE DUBOIS") == [2]
    assert partners(state, "propose well at A6 with Oksana") == [1]  # transliterated
    assert partners(state, "propose well at A6 with the orange player") == [2]


@pytest.mark.parametrize(
    "named",
    ["", "   ", ",", "Иван", "Frank", "Bo, Bob", "Zed", "de"],
    ids=["empty", "spaces", "comma", "stranger", "oneself", "twice", "unknown", "a particle"],
)
def test_no_name_or_a_wrong_one_is_refused_with_the_players(named):
    state = table_of(["Frank de Vries", "Оксана Шевченко", "Chloé Dubois", "Bob Smith"])
    with pytest.raises(ParseError) as refused:
        GAME.parse(f"propose well at A6 with {named}", state, 0)
    message = refused.value.message
    assert "Оксана Шевченко" in message or "Bob Smith" in message


def test_an_ambiguous_prefix_is_refused_with_the_candidates():
    state = table_of(["Frank de Vries", "Anna Berg", "Anneke Jansen", "Bob Smith"])
    with pytest.raises(ParseError) as refused:
        GAME.parse("propose well at A6 with Ann", state, 0)
    assert "Anna Berg, Anneke Jansen" in refused.value.message
    assert partners(state, "propose well at A6 with Anna") == [1]  # a first name wins


def test_shares_name_players_in_any_script():
    state = table_of(["Frank de Vries", "Оксана Шевченко", "王 芳", "محمد العلي"])
    move = GAME.parse(
        "propose well at A6: Frank pays 1 g and 0 wood for 1 point, Оксана pays 0 g and 1 "
        "wood for 1 point",
        state,
        0,
    )
    assert move["seats"] == [0, 1] and move["guilders"] == [1, 0]
    with pytest.raises(ParseError):
        GAME.parse("propose well at A6: Иван pays 1 g and 1 wood for 2 points", state, 0)


# --- no name list ever yields a partner the player did not name ------------------------------

name_text = st.text(
    alphabet=st.characters(categories=("L", "M", "Nd", "Zs", "P")), min_size=0, max_size=14
)


def named_by(item: str, name: str, colour: str) -> bool:
    """`item` names this player in some form: the whole name or colour, or the start of the
    name or of one of its words (the widest reading find_players may take)."""
    for form in FORMS:
        typed, full = form(item), form(name)
        if not typed:
            continue
        if typed.removeprefix("the ").removesuffix(" player") == form(colour):
            return True
        if full.startswith(typed):
            return True
        if any(word.startswith(typed) for word in full.split()):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(names=st.lists(name_text, min_size=2, max_size=4), typed=st.lists(name_text, max_size=4))
def test_no_list_of_names_yields_a_player_nobody_named(names, typed):
    candidates = list(range(len(names)))
    try:
        found = find_players(", ".join(typed), names, candidates, COLOURS)
    except ParseError:
        return
    assert len(found) == len(set(found)) <= len(typed)
    for seat in found:
        assert any(named_by(item, names[seat], COLOURS[seat]) for item in typed)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_proposal_names_exactly_the_partners_written(data):
    names = ["Frank de Vries", "Оксана Шевченко", "王 芳", "Chloé Dubois"]
    state = table_of(names)
    chosen = data.draw(st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=3, unique=True))
    stranger = data.draw(st.sampled_from(["", "Иван Петров", "Ελένη", "محمد"]))
    written = [names[s] for s in chosen] + ([stranger] if stranger else [])
    command = "propose well at A6 with " + data.draw(st.sampled_from([", ", " and ", "; "])).join(
        written
    )
    try:
        found = partners(state, command)
    except ParseError:
        assert stranger, command
        return
    assert not stranger and sorted(found) == sorted(chosen), command
