"""An independent checker of Pig's checkable trace (``analyzer replay --game pig --json``).

A plain Python twin of ``examples/pig/README.md`` that imports nothing of
``analyzer`` or of the example: given one trace (the JSON object, parsed) it
plays the game again from its events alone and raises :class:`TraceError`,
naming the event, unless every roll is a face of the die, every decision is
one of the options the rules give (and lists them), every bust and bank is the
one the rules fix, the turns go round from the first player, the game ends
where the ruling ``end`` says, and the final scores, counts, win shares and
winners are its own. What it does not check: why a seat chose what it chose.
"""

from __future__ import annotations

OPTIONS = ["roll", "hold"]


class TraceError(AssertionError):
    """The trace breaks the rules at the named event."""


class Checker:
    def __init__(self, trace: dict):
        if trace.get("game") != "pig":
            raise TraceError(f"not a Pig trace: {trace.get('game')!r}")
        self.t = trace
        self.rules = trace["setup"]
        self.n = trace["players"]
        self.events = trace["events"]
        self.i = 0
        self.score = [0] * self.n
        self.count = [{"turns": 0, "rolls": 0, "busts": 0} for _ in range(self.n)]

    def fail(self, why: str):
        at = self.events[self.i - 1] if self.i else "the start"
        raise TraceError(f"event {self.i - 1} ({at}): {why}")

    def take(self, type_: str, kind: str, seat: int, turn: int) -> dict:
        if self.i >= len(self.events):
            raise TraceError(f"the trace ends where a {type_!r} of seat {seat} was due")
        ev = self.events[self.i]
        self.i += 1
        if (ev.get("type"), ev.get("kind")) != (type_, kind):
            self.fail(f"expected a {kind} {type_!r}")
        if (ev.get("seat"), ev.get("turn")) != (seat, turn):
            self.fail(f"expected seat {seat} in turn {turn}")
        return ev

    def turn(self, p: int, turn: int):
        """One turn: roll until the seat holds or rolls the bust face."""
        r = self.rules
        total = 0
        self.count[p]["turns"] += 1
        while True:
            ev = self.take("roll", "chance", p, turn)
            self.count[p]["rolls"] += 1
            if not 1 <= ev["face"] <= r["faces"]:
                self.fail(f"a d{r['faces']} has no face {ev['face']}")
            if ev["face"] == r["bust"]:
                if ev["total"] != 0:
                    self.fail("a bust leaves a turn total of 0")
                ev = self.take("bust", "effect", p, turn)
                if ev["lost"] != total:
                    self.fail(f"the bust loses {total}")
                self.count[p]["busts"] += 1
                return
            total += ev["face"]
            if ev["total"] != total:
                self.fail(f"the turn total is {total}")
            ev = self.take("decide", "choice", p, turn)
            if ev.get("options") != OPTIONS or ev["action"] not in OPTIONS:
                self.fail(f"a decision is one of {OPTIONS}, listed as its options")
            if ev["total"] != total:
                self.fail(f"{total} points are at stake")
            if ev["action"] == "hold":
                self.score[p] += total
                ev = self.take("bank", "effect", p, turn)
                if (ev["banked"], ev["score"]) != (total, self.score[p]):
                    self.fail(f"banks {total} to a score of {self.score[p]}")
                return

    def run(self):
        r = self.rules
        turn, p, reached = 0, 0, False
        while True:
            self.turn(p, turn)
            turn += 1
            reached = reached or self.score[p] >= r["target"]
            if reached and (r["end"] == "at_once" or p == self.n - 1):
                capped = False
                break
            if turn >= r["max_turns"]:
                capped = True
                break
            p = (p + 1) % self.n
        if self.i != len(self.events):
            self.i += 1
            self.fail("events after the end of the game")
        fin = self.t["final"]
        best = max(self.score)
        share = 1 / self.score.count(best)
        wins = [share if x == best else 0.0 for x in self.score]
        for q, seat in enumerate(fin["seats"]):
            mine = {"seat": q, "score": self.score[q], **self.count[q]}
            if {k: seat[k] for k in mine} != mine or abs(seat["win"] - wins[q]) > 1e-6:
                raise TraceError(f"final: seat {q} {seat}, the rules give {mine}, win {wins[q]}")
        if fin["winners"] != [q for q in range(self.n) if wins[q] > 0]:
            raise TraceError(f"final: winners {fin['winners']}")
        if (fin["turns"], fin["capped"]) != (turn, capped):
            raise TraceError(f"final: {turn} turns, capped {capped}")


def check_trace(trace: dict) -> None:
    """Raise :class:`TraceError` at the first event that breaks the rules."""
    Checker(trace).run()
