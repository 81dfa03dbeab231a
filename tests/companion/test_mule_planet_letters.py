"""What each letter of Planet Irata's map stands for is rule data (``data.planet_irata.letters``
in ``components/mule/rules.yaml``), read by the companion's Land Grant check; the printed Game
Board's legend gives each of those letters the fill of the same Land type."""

from __future__ import annotations

import pytest

from companion.mule import data
from components import load
from components.errors import DefinitionError


def with_planet(md: data.MuleData, **planet: object) -> data.MuleData:
    return md._replace(data={**md.data, "planet_irata": {
        **md.data["planet_irata"], **planet}})


def test_the_letters_are_read_from_the_rule_data() -> None:
    md = data.load()
    assert md.planet_irata.letters == {"P": "plains", "L": "low-mountain",
                                       "H": "high-mountain", "R": "river", "S": "store"}
    # the map's red Zone (its first two columns) as printed: H P / P H / L P / P L / P H
    assert md.planet_irata.squares("red", "high-mountain") == 3
    assert md.planet_irata.squares("red", "plains") == 5
    # the letters mean what the data says: read H as Plains and the Red Zone has 8 Plains
    swapped = with_planet(md, letters={**md.data["planet_irata"]["letters"], "H": "plains"})
    assert swapped.planet_irata.squares("red", "plains") == 8
    assert swapped.planet_irata.squares("red", "high-mountain") == 0


@pytest.mark.parametrize(("letters", "reason"), [
    ({"P": "plains", "L": "low-mountain", "H": "high-mountain", "R": "swamp", "S": "store"},
     "not 'swamp'"),
    ({"P": "plains", "L": "low-mountain", "H": "high-mountain", "S": "store"},
     r"every row needs one letter \(P, L, H, S\)"),
    ({}, "each letter of the map stands for one of"),
])
def test_a_letter_the_rules_do_not_know_is_a_definition_error(letters: dict[str, str],
                                                               reason: str) -> None:
    with pytest.raises(DefinitionError, match=reason):
        _ = with_planet(data.load(), letters=letters).planet_irata


def test_the_board_legend_fills_each_letter_with_its_land_type() -> None:
    game = load("mule")
    legend = game.component("board/game-board").fields["land_legend"]
    letters = game.data["planet_irata"]["letters"]
    assert set(legend) == set(letters)
    for letter, land in letters.items():
        if land != "store":                 # The Store's square: gold, its art drawn over it
            assert legend[letter]["fill"] == land, letter
