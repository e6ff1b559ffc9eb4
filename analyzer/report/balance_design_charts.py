"""The charts of a balance run: the response curve, the seats before and after, the front.

Drawn from the manifest's ``balance`` entry alone (:mod:`analyzer.report.balance_page`
says the same in words): the monotone knob's response with its grid points, the
fitted curve's 95% band, the target and the chosen value (:func:`response_curve`,
when the answer has a ``curve``); every seat's win rate against a fair share per
player count, printed, with the change and with re-tuned players (:func:`seat_bars`);
the designs on the front when the objectives were shown as one (:func:`front`).
Not to be confused with :mod:`analyzer.report.balance_charts`, the seat-balance
charts of every run.
"""

from __future__ import annotations

import re

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analyzer.report.balance_page import (
    _finite,
    changes,
    games_at,
    is_share,
    knob_label,
    knobs,
    objective,
    objective_label,
    objective_unit,
    player_counts,
    seat_list,
    value_text,
)
from analyzer.report.chart_style import (
    COLOURS,
    PLAIN,
    REFERENCE,
    SIGNIFICANT,
    axes_grid,
    count_range_text,
    error_bars,
    figure,
)
from analyzer.report.words import ORDINALS, ordinal_player

#: the three designs a seat chart compares: key, words, colour
STAGES = (
    ("before", "printed", "#999999"),
    ("after", "with the change", COLOURS[0]),
    ("retuned", "with the change, players re-tuned", COLOURS[1]),
)


def make_charts(doc: dict, stamp: str) -> list[tuple[str, Figure]]:
    """``[(name, figure)]``: the charts the answer has data for."""
    out = []
    if _curve_points(doc):
        out.append(("balance_curve", response_curve(doc, stamp)))
    if any(seat_list(doc, n, "before") or seat_list(doc, n, "after") for n in player_counts(doc)):
        out.append(("balance_seats", seat_bars(doc, stamp)))
    if _front_rows(doc):
        out.append(("balance_front", front(doc, stamp)))
    return out


# --------------------------------------------------------------------------- the curve


def _curve_points(doc: dict) -> list[dict]:
    c = doc.get("curve")
    if not isinstance(c, dict):
        return []
    return [
        p
        for p in c.get("points") or []
        if isinstance(p, dict) and _finite(p.get("value")) and _finite(p.get("estimate"))
    ]


def _fit_raw(c: dict, x: np.ndarray) -> np.ndarray | None:
    """The fitted curve at ``x`` as its ``fit`` says (a polynomial, lowest power first,
    or a logistic ``1 / (1 + exp(-(a + b x)))``), on the fit's own scale; else None."""
    fit = c.get("fit") if isinstance(c.get("fit"), dict) else {}
    coef, kind = fit.get("coef"), fit.get("kind")
    if not (isinstance(coef, list) and coef and all(_finite(v) for v in coef)):
        return None
    z = np.polynomial.polynomial.polyval(x, np.asarray(coef, float))
    if kind in ("linear", "quadratic", "cubic", "polynomial"):
        return z
    if kind == "logistic":
        return 1 / (1 + np.exp(-z))
    return None


def _fit(c: dict, x: np.ndarray, pts: list[dict]) -> np.ndarray | None:
    """The fitted curve at ``x`` on the points' scale: a fit made on a win rate is
    drawn against a seat's gap from a fair share (the rate less ``1/players``) when
    that is what the points are (whichever lies closer to them)."""
    px = np.array([p["value"] for p in pts], float)
    py = np.array([p["estimate"] for p in pts], float)
    at = _fit_raw(c, px)
    if at is None:
        return None
    offsets = [0.0]
    if _finite(c.get("players")) and c["players"] > 0:
        offsets.append(1 / c["players"])
    best = min(offsets, key=lambda o: float(np.mean((at - o - py) ** 2)))
    return _fit_raw(c, x) - best


def _curve_label(doc: dict, c: dict, pts: list[dict]) -> str:
    """What the curve's vertical axis measures, in words."""
    if c.get("label"):
        return str(c["label"])
    oid = str(c.get("objective") or "")
    m = re.fullmatch(r"seat_(\d+)_rate_(\d+)p", oid)
    gap = c.get("target") == 0 or any(p["estimate"] < 0 for p in pts)
    if m and gap:  # the seat's win rate measured from its fair share
        seat, n = int(m.group(1)), m.group(2)
        return f"{ordinal_player(seat - 1)}'s win rate minus a fair share at {n} players"
    return objective_label(doc, oid)


def response_curve(doc: dict, stamp: str) -> Figure:
    """The monotone knob's response: grid estimates with 95% intervals, the fitted
    curve with its 95% band, the target, the fair value's interval and the chosen value."""
    c = doc["curve"]
    pts = _curve_points(doc)
    oid = str(c.get("objective") or "")
    share = is_share(objective(doc, oid), oid)
    scale = 100.0 if share else 1.0
    unit = c.get("unit") or objective_unit(doc, oid) or ""
    label = _curve_label(doc, c, pts)
    knob = next((k for k in knobs(doc) if k["path"] == c.get("knob")), {"path": c.get("knob")})
    kname = knob_label(knob) if knob.get("path") else "the knob"
    root, span = c.get("root"), c.get("root_interval")
    chosen = c.get("chosen")
    has_span = isinstance(span, list) and len(span) == 2 and all(_finite(v) for v in span)
    if _finite(root) and has_span:
        title = (
            f"The fitted curve meets the target at {root:.2f} [{span[0]:.2f}, {span[1]:.2f}] "
            f"{kname}"
        )
    elif _finite(root):
        title = f"The fitted curve meets the target at {root:.2f} {kname} (no bounded interval)"
    else:
        title = f"How the {label} responds to {kname}"
    if chosen is not None:
        title += f"; {value_text(knob, chosen)} chosen"
    games = [p["games"] for p in pts if _finite(p.get("games"))]
    n_text = f"n = {count_range_text(games)} games per value" if games else "search games"
    fig = figure(
        title,
        f"{n_text}, the same seeds for every value · bars: 95% intervals · band: the fitted "
        "curve's 95% band",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    x = np.array([p["value"] for p in pts], float)
    y = np.array([p["estimate"] for p in pts], float) * scale
    lo = np.array([p.get("low", p["estimate"]) for p in pts], float) * scale
    hi = np.array([p.get("high", p["estimate"]) for p in pts], float) * scale
    band = [
        b
        for b in c.get("band") or []
        if isinstance(b, dict) and all(_finite(b.get(k)) for k in ("value", "low", "high"))
    ]
    bx = np.array(sorted(b["value"] for b in band), float)
    if band:
        ordered = sorted(band, key=lambda b: b["value"])
        blo = np.array([b["low"] for b in ordered], float) * scale
        bhi = np.array([b["high"] for b in ordered], float) * scale
        ax.fill_between(bx, blo, bhi, color=PLAIN, alpha=0.18, lw=0, label="fitted curve, 95% band")
    fx = np.linspace(bx.min(), bx.max(), 200) if band else np.linspace(x.min(), x.max(), 200)
    fy = _fit(c, fx, pts)
    if fy is not None:
        fy = fy * scale
        ax.plot(fx, fy, color=PLAIN, lw=1.5, label="fitted curve")
    elif band:
        fx, fy = bx, (blo + bhi) / 2
        ax.plot(fx, fy, color=PLAIN, lw=1.5, label="fitted curve (the band's middle)")
    ax.errorbar(x, y, yerr=error_bars(y, lo, hi), fmt="o", ms=5, capsize=3, color="black",
                label="grid value: estimate, 95% interval")  # fmt: skip
    target = c.get("target")
    if _finite(target):
        ax.axhline(target * scale, color=REFERENCE, ls="--", lw=1.2,
                   label=f"target ({target * scale:g} {unit})".replace(" )", ")"))  # fmt: skip
    if has_span:
        fair = f"95% interval of the fair value ({span[0]:.2f} to {span[1]:.2f})"
        ax.axvspan(span[0], span[1], color=SIGNIFICANT, alpha=0.12, lw=0, label=fair)
    if _finite(chosen):
        ax.axvline(chosen, color=SIGNIFICANT, lw=1.2, ls=":")
        if fy is not None and fx.min() <= chosen <= fx.max():  # on the fitted curve
            cy = float(np.interp(chosen, fx, fy))
        else:  # else its grid estimate, if it was played
            cy = next((yy for xx, yy in zip(x, y, strict=True) if xx == chosen), None)
        if cy is not None:
            ax.plot([chosen], [cy], marker="D", ms=10, color=SIGNIFICANT, ls="none", zorder=5,
                    label=f"chosen: {value_text(knob, chosen)}")  # fmt: skip
    if knob.get("kind") == "int" or all(float(v).is_integer() for v in x):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"{kname} (value of the knob)")
    ax.set_ylabel(f"{label} ({unit})" if unit else label)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return fig


# --------------------------------------------------------------------------- seats


def _gap_points(doc: dict, n: int, key: str) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Seats (from 1), their gaps from a fair share in win points, and error bars."""
    rows = sorted(seat_list(doc, n, key), key=lambda r: r.get("seat", 0))
    if not rows:
        return [], np.zeros(0), np.zeros((2, 0))
    fair = 1 / n
    seats = [int(r["seat"]) for r in rows]
    y = np.array([100 * (r["rate"] - fair) for r in rows])
    lo = np.array([100 * (r.get("low", r["rate"]) - fair) for r in rows])
    hi = np.array([100 * (r.get("high", r["rate"]) - fair) for r in rows])
    return seats, y, error_bars(y, lo, hi)


def _largest_gap(doc: dict, key: str) -> float | None:
    gaps = [abs(r["rate"] - 1 / n) for n in player_counts(doc) for r in seat_list(doc, n, key)]
    return 100 * max(gaps) if gaps else None


def seat_bars(doc: dict, stamp: str) -> Figure:
    """Per player count, every seat's win rate minus a fair share (win points):
    printed, with the change and (when re-tuned) with re-tuned players; 95%
    intervals, the certificate's margin shaded."""
    counts = [n for n in player_counts(doc) if seat_list(doc, n, "before") or
              seat_list(doc, n, "after")]  # fmt: skip
    stages = [s for s in STAGES if any(seat_list(doc, n, s[0]) for n in counts)]
    b, a = _largest_gap(doc, "before"), _largest_gap(doc, "after")
    delta = doc.get("delta")
    if b is not None and not changes(doc):
        title = f"The printed values stay: the largest seat gap is {b:.1f} win points"
    elif b is not None and a is not None:
        title = f"The change takes the largest seat gap from {b:.1f} to {a:.1f} win points"
    else:
        title = "Win rate by seat against a fair share"
    if b is not None and doc.get("certified") and _finite(delta):
        title += f": every seat certified within ±{100 * delta:.1f} of fair"
    elif b is not None and doc.get("certified") is False:
        title += " (not certified)"
    games = [g for g in (games_at(doc, n) for n in counts) if g]
    n_text = (
        f"n = {count_range_text(games)} fresh games per player count and design"
        if games
        else "fresh games"
    )
    margin = f" · shaded: ±{100 * delta:.1f} win points, the margin" if _finite(delta) else ""
    fig = figure(title, f"{n_text} · bars: 95% intervals{margin}", stamp)
    axes = axes_grid(fig, 1, max(len(counts), 1))[0]
    width = 0.8 / max(len(stages), 1)
    top = 0.0
    for ax, n in zip(axes, counts, strict=False):
        for i, (key, words, colour) in enumerate(stages):
            seats, y, err = _gap_points(doc, n, key)
            if not seats:
                continue
            pos = np.array(seats, float) - 0.4 + width * (i + 0.5)
            ax.bar(pos, y, width * 0.9, color=colour, label=words, zorder=2)
            ax.errorbar(pos, y, yerr=err, fmt="none", ecolor="black", capsize=2, lw=0.9,
                        zorder=3)  # fmt: skip
            top = max(top, float(np.max(np.abs(y) + err.max(axis=0))) if len(y) else 0.0)
        ax.axhline(0, color=REFERENCE, lw=1.2, ls="--", label="fair share", zorder=4)
        if _finite(delta):
            ax.axhspan(-100 * delta, 100 * delta, color=COLOURS[2], alpha=0.12, lw=0, zorder=0,
                       label=f"±{100 * delta:.1f} win points of fair")  # fmt: skip
            top = max(top, 100 * delta)
        seats = sorted({int(r["seat"]) for k, *_ in stages for r in seat_list(doc, n, k)})
        names = [ORDINALS[s - 1] if 0 < s <= len(ORDINALS) else f"#{s}" for s in seats]
        ax.set_xticks(seats, names, fontsize=8 if len(counts) > 2 and n > 4 else 9)
        fair = 100 / n
        fair_text = f"{fair:.0f}%" if abs(fair - round(fair)) < 1e-9 else f"{fair:.1f}%"
        ax.set_title(f"{n} players (fair share {fair_text})", fontsize=10)
        ax.set_xlabel("seat, in turn order")
        ax.grid(axis="y", alpha=0.3)
    for ax in axes:
        ax.set_ylim(-1.15 * top, 1.15 * top)
    for ax in axes[1:]:  # the same scale in every panel: its numbers once, on the left
        ax.tick_params(labelleft=False)
    axes[0].set_ylabel("win rate minus a fair share (win points)")
    handles, labels = axes[0].get_legend_handles_labels()
    first = {words for _, words, _ in stages}  # the designs first, then the references
    order = sorted(range(len(labels)), key=lambda i: labels[i] not in first)
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    # one legend for every panel, in the space between the subtitle and the panels
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.935),
               ncols=min(len(labels), 5), fontsize=8, frameon=False)  # fmt: skip
    return fig


# --------------------------------------------------------------------------- the front


def _front_rows(doc: dict) -> list[dict]:
    rows = doc.get("front")
    if not isinstance(rows, list):
        return []
    return [r for r in rows if isinstance(r, dict) and isinstance(r.get("objectives"), dict)]


def _front_scale(doc: dict, oid: str) -> float:
    """100 for a share (the schema keeps fractions; drawn in win points), 1 otherwise."""
    return 100.0 if is_share(objective(doc, oid), oid) else 1.0


def _value(v):
    """``(value, low, high)`` of a front entry's objective (a number or an estimate)."""
    if isinstance(v, dict):
        x = v.get("value", v.get("estimate"))
        return x, v.get("low", x), v.get("high", x)
    return v, v, v


def _is_chosen(doc: dict, row: dict) -> bool:
    if row.get("chosen") or row.get("recommended"):
        return True
    values = row.get("values") or row.get("design")
    return isinstance(values, dict) and values == (doc.get("recommended") or {})


def front(doc: dict, stamp: str) -> Figure:
    """The designs on the front: the first objective against each other one (up to
    three panels), the recommended design filled."""
    rows = _front_rows(doc)
    ids = list(dict.fromkeys(k for r in rows for k in r["objectives"]))
    xid, others = ids[0], ids[1:4] or ids[:1]
    games = [r["games"] for r in rows if _finite(r.get("games"))]
    n_text = (
        f"n = {count_range_text(games)} games per design" if games else "estimates of the search"
    )
    chosen = [r for r in rows if _is_chosen(doc, r)]
    title = f"The objectives pull apart: {len(rows)} designs on the front, none better on all"
    if chosen and chosen[0].get("candidate") is not None:
        title += f"; candidate {chosen[0]['candidate']} recommended"
    fig = figure(
        title,
        f"{n_text} · each point a design no other beats on every objective · bars: 95% "
        "intervals · filled: the recommended design",
        stamp,
    )
    axes = axes_grid(fig, 1, len(others))[0]

    def unit_label(oid: str) -> str:
        u = objective_unit(doc, oid)
        return f"{objective_label(doc, oid)} ({u})" if u else objective_label(doc, oid)

    for ax, yid in zip(axes, others, strict=False):
        sx, sy = _front_scale(doc, xid), _front_scale(doc, yid)
        pts = []
        for r in rows:
            vx, vy = _value(r["objectives"].get(xid)), _value(r["objectives"].get(yid))
            if all(_finite(v) for v in (*vx, *vy)):
                pts.append((r, vx, vy))
        pts.sort(key=lambda p: p[1][0])
        if not pts:
            continue
        xs = np.array([p[1][0] for p in pts]) * sx
        ys = np.array([p[2][0] for p in pts]) * sy
        xerr = error_bars(xs, [p[1][1] * sx for p in pts], [p[1][2] * sx for p in pts])
        yerr = error_bars(ys, [p[2][1] * sy for p in pts], [p[2][2] * sy for p in pts])
        ax.plot(xs, ys, color=PLAIN, lw=0.8, alpha=0.6)
        ax.errorbar(xs, ys, xerr=xerr, yerr=yerr, fmt="o", ms=6, mfc="white", color=PLAIN,
                    capsize=2, lw=0.8, label="a design on the front")  # fmt: skip
        mid_x, mid_y = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
        for (r, _vx, _vy), x, y in zip(pts, xs, ys, strict=True):
            if _is_chosen(doc, r):
                ax.plot([x], [y], "o", ms=9, color=SIGNIFICANT, label="recommended", zorder=5)
                right, up = x <= mid_x, y <= mid_y  # the label towards the middle, inside
                ax.annotate(f"candidate {r.get('candidate', '')}".strip(), (x, y),
                            textcoords="offset points", xytext=(8 - 16 * (not right),
                                                                8 - 16 * (not up)),
                            ha="left" if right else "right", va="bottom" if up else "top",
                            fontsize=8, color=SIGNIFICANT)  # fmt: skip
        for axis, vals in ((ax.xaxis, xs), (ax.yaxis, ys)):
            if all(abs(v - round(v)) < 1e-6 for v in vals):  # steps, edits: whole numbers
                axis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(unit_label(xid))
        ax.set_ylabel(unit_label(yid))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    return fig
