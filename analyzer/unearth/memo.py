"""What the strategies keep between decisions: each seat's strategy, parameters and memo.

The game itself is :class:`~analyzer.unearth.state.State`; nothing here is part
of it. A :class:`Memo` holds, for every seat, its strategy code and parameter
row, and the memoised slot values and face gains that let ``balanced`` decide
quickly (:mod:`.strategies`, "The strategy memo"), plus the strategies' own work
arrays. A memo never changes how a game is played: every answer read from it is
what a cold memo would compute (``tests/unearth/test_cards.py`` checks that).

Kernels receive it as a view (:mod:`analyzer.kernels.kernel_view`) named ``m``; scalars
live in ``m.sc``, indexed by the ``M_*`` constants.
"""

from typing import NamedTuple

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.claims import RANK_DICE
from analyzer.unearth.tableau import N_CELLS

# ------------------------------------------------------------------ scalar slots
M_EXC_READY = 0  #: 1: the delver phase left the excavation choice in M_EXC_DIE/M_EXC_SLOT
M_EXC_DIE = 1
M_EXC_SLOT = 2
M_CELLS_READY = 3  #: > 0: choose_colour left that many scored cells for choose_cell
M_FILL = 4  #: slot summaries made so far (strategies.fill_slot_cache)
M_CAND_FILL = 5  #: the summary the sorted excavation pairs in ``cand`` belong to (-1 none)
M_CAND_N = 6  #: how many pairs ``cand`` holds
N_MSCALARS = 7

GAIN_KEYS = 6  #: modifier settings memoised per seat (one more row set is scratch)
SIG_INTS = 13  #: integers of a slot summary the slot values depend on (slot_cache[:13])
N_HIST = 48  #: score_cells: colour counts around each of a cell's 6 neighbours (8 colours max)


class Memo(NamedTuple):
    """Strategies and memo of P seats (D dice each); all integers int64."""

    strat: np.ndarray  #: int64[P] each seat's Strategy code
    given: np.ndarray  #: float64[P, N_PARAMS] each seat's parameter row, as given
    #: float64[P, N_PARAMS] the row its decisions use now: ``given`` with the
    #: card and stone weights of this moment of the game (strategies.refresh_params)
    prm: np.ndarray
    sc: np.ndarray  #: int64[N_MSCALARS]
    slot_cache: np.ndarray  #: int64[max slots, 16] per-slot summary for the deciding seat
    slot_base: np.ndarray  #: float64[max slots, 3] value now, worth to me, worth to the best other
    gkeys: np.ndarray  #: int64[P, GAIN_KEYS] face-gain memo: each seat's modifier keys (-1 free)
    gstamp: np.ndarray  #: int64[P, GAIN_KEYS + 1, D, max slots] 2 * slot version + stone, per row
    gtab: np.ndarray  #: float64[P * (GAIN_KEYS + 1) * D * max slots, 16] memoised face gains
    vstamp: np.ndarray  #: int64[P, D, max slots] slot version of each row of ``vtab``
    vtab: np.ndarray  #: float64[P, D, max slots, 16] memoised slot values by die value
    slot_sig: np.ndarray  #: int64[P, max slots, SIG_INTS] each seat's last summary of each slot
    slot_sigf: np.ndarray  #: float64[P, max slots, 2] and the ruin's worths in it
    slot_ver: np.ndarray  #: int64[P, max slots] bumped when a seat's summary of a slot changes
    #: int64[P, 4] a seat's roll-modifier setting: effects, roll modifier, its
    #: version; and the version of the seat's stone worth (face gains)
    env: np.ndarray
    env_prm: np.ndarray  #: float64[P, N_PARAMS] the parameter row the seat's memo was made with
    mstamp: np.ndarray  #: int64[P, GAIN_KEYS + 1, D] ``env`` version of each row of ``mtab``
    mtab: np.ndarray  #: int64[P, GAIN_KEYS + 1, D, 16] memoised reachable-value masks by face
    dice_cfg: np.ndarray  #: int64[max slots, 2] the dice on each slot, packed (fill_slot_cache)
    slot_cfg: np.ndarray  #: int64[P, max slots, 3] packed dice and card at each seat's last summary
    cand: np.ndarray  #: int64[D * max slots] (die, slot) pairs in best_excavation's order
    cand_ub: np.ndarray  #: float64[D * max slots] their gain bounds
    ddone: np.ndarray  #: int64[P * D] bit v set: ``dvals`` holds this die's value for face v
    dvals: np.ndarray  #: float64[P * D, 16] die_values of the current delver-phase decision
    # work arrays of single decisions
    keys: np.ndarray  #: int64[RANK_DICE] the deciding seat's dice keys on a ruin (slot_info)
    seat_keys: np.ndarray  #: int64[P, 8] each seat's dice keys on a ruin (slot_info, die_values)
    seat_n: np.ndarray  #: int64[P] how many keys of each seat in ``seat_keys``
    worth: np.ndarray  #: float64[P] a ruin's visible worth to each seat (die_values)
    rows: np.ndarray  #: int64[max slots] gtab rows of each slot (Expedition)
    cells: np.ndarray  #: int64[N_CELLS] legal cells for a stone (choose_colour, choose_cell)
    cellval: np.ndarray  #: float64[N_CELLS * n_colours] their ring-planning scores (score_cells)
    filled: np.ndarray  #: int64[6] stones around each neighbour of a cell (score_cells)
    cellok: np.ndarray  #: int64[N_CELLS] 1: the claimer may put a stone on cell ``cells[i]``
    hist: np.ndarray  #: int64[N_HIST] and their colours (score_cells)
    slot_stone: np.ndarray  #: int64[max slots] 1: a stone is to be had there (choose_play)
    vgain: np.ndarray  #: float64[16] Forgotten Song: the gain of naming each value (choose_play)
    vhit: np.ndarray  #: int64[16] 1: some die on a ruin shows that value
    ring_n: np.ndarray  #: int64[P] stones in the tableau when ``ring_val`` was computed (-1 never)
    ring_val: np.ndarray  #: float64[P] how close the seat's best open ring is (strategies)
    #: int64[P] bit w set: the seat may not build named wonder w (an intervention,
    #: ``scenarios/README.md``, "Interventions"); 0 for every seat plays the game as printed
    forbid: np.ndarray
    #: int64[P] bit k set: restricted play bars the seat from playing delver kind k;
    #: 0 for every seat plays the game as printed
    bar_delvers: np.ndarray


def new_memo(t, n_players: int, strat, prm, forbid=None, bar_delvers=None) -> Memo:
    """A cold :class:`Memo` for ``n_players`` seats playing strategy codes ``strat``
    (int64[P]) with parameter rows ``prm`` (float64[P, N_PARAMS]); ``forbid``
    (int64[P], default none) the named wonders each seat may not build, one bit
    per wonder index; ``bar_delvers`` (int64[P], default none) the delver kinds each
    seat may not play (restricted play), one bit per kind."""
    n_dice = t.dice_faces.shape[0]
    max_slots = int(t.revealed_by_players.max())
    n_col = t.n_stone_colours
    strat = np.ascontiguousarray(strat, np.int64)
    prm = np.ascontiguousarray(prm, np.float64)
    n_prm = prm.shape[1]
    m = Memo(
        strat=strat,
        given=prm,
        prm=prm.copy(),
        sc=np.zeros(N_MSCALARS, np.int64),
        slot_cache=np.zeros((max_slots, 16), np.int64),
        slot_base=np.zeros((max_slots, 3), np.float64),
        gkeys=np.full((n_players, GAIN_KEYS), -1, np.int64),
        gstamp=np.full((n_players, GAIN_KEYS + 1, n_dice, max_slots), -1, np.int64),
        gtab=np.zeros((n_players * (GAIN_KEYS + 1) * n_dice * max_slots, 16), np.float64),
        vstamp=np.full((n_players, n_dice, max_slots), -1, np.int64),
        vtab=np.zeros((n_players, n_dice, max_slots, 16), np.float64),
        slot_sig=np.zeros((n_players, max_slots, SIG_INTS), np.int64),
        slot_sigf=np.zeros((n_players, max_slots, 2), np.float64),
        slot_ver=np.zeros((n_players, max_slots), np.int64),
        env=np.zeros((n_players, 4), np.int64),
        env_prm=np.full((n_players, n_prm), np.nan, np.float64),
        mstamp=np.full((n_players, GAIN_KEYS + 1, n_dice), -1, np.int64),
        mtab=np.zeros((n_players, GAIN_KEYS + 1, n_dice, 16), np.int64),
        dice_cfg=np.zeros((max_slots, 2), np.int64),
        slot_cfg=np.full((n_players, max_slots, 3), -1, np.int64),
        cand=np.zeros(n_dice * max_slots, np.int64),
        cand_ub=np.zeros(n_dice * max_slots, np.float64),
        ddone=np.zeros(n_players * n_dice, np.int64),
        dvals=np.zeros((n_players * n_dice, 16), np.float64),
        keys=np.zeros(RANK_DICE, np.int64),
        seat_keys=np.zeros((n_players, 8), np.int64),
        seat_n=np.zeros(n_players, np.int64),
        worth=np.zeros(n_players, np.float64),
        rows=np.zeros(max_slots, np.int64),
        cells=np.zeros(N_CELLS, np.int64),
        cellval=np.zeros(N_CELLS * n_col, np.float64),
        filled=np.zeros(6, np.int64),
        cellok=np.ones(N_CELLS, np.int64),
        hist=np.zeros(N_HIST, np.int64),
        slot_stone=np.zeros(max_slots, np.int64),
        vgain=np.zeros(16, np.float64),
        vhit=np.zeros(16, np.int64),
        ring_n=np.full(n_players, -1, np.int64),
        ring_val=np.zeros(n_players, np.float64),
        forbid=(
            np.zeros(n_players, np.int64)
            if forbid is None
            else np.ascontiguousarray(forbid, np.int64).copy()
        ),
        bar_delvers=(
            np.zeros(n_players, np.int64)
            if bar_delvers is None
            else np.ascontiguousarray(bar_delvers, np.int64).copy()
        ),
    )
    m.sc[M_CAND_FILL] = -1
    return m


@njit
def forget_memo(m):
    """Empty every seat's value and face-gain memo (a new game starts cold)."""
    m.sc[:] = 0
    m.gkeys[:] = -1
    m.gstamp[:] = -1
    m.vstamp[:] = -1
    m.mstamp[:] = -1
    m.slot_ver[:] = 0
    m.env[:] = 0
    m.env_prm[:] = np.nan
    m.sc[M_CAND_FILL] = -1
    m.slot_cfg[:] = -1
    m.prm[:] = m.given
    m.ring_n[:] = -1
