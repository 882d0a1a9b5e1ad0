"""A player's phone (375 px) in a real browser, where the room's controls
are tight: the docked "Who sees it" shows each choice whole, the log's head
(its filter, JSON and CSV) stays on one line, and a compel the GM offers is
told above the log, where the player looks, with a button that brings them to
its Accept and Refuse. Screenshots at 375 px are kept to be looked at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

FITS = """select => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = context.measureText(select.selectedOptions[0].textContent).width;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [text, room];
}"""
"""The width of the select's chosen text, and the width it has (its arrow included)."""

ONE_LINE = """head => {
  const rects = [...head.children].map(child => child.getBoundingClientRect());
  return rects.map(rect => [Math.round(rect.top), Math.round(rect.bottom)]);
}"""
"""The vertical extent of each part of the log's head."""


def test_the_docked_choices_and_the_logs_head_fit_a_phone(
    gm_and_phone: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    _, bo, _ = gm_and_phone("Narrow", "fate", "Bo", fate_sheet, "Bob (fate)")
    page = bo.page
    select = page.locator("#roll-visibility")
    expect(select).to_be_visible()  # docked, with the roll line
    for value in ("gm", "self", "blind"):
        select.select_option(value)
        chosen = select.locator("option:checked")
        text, room = select.evaluate(FITS)
        # the arrow of a select takes about 20 px of what is left beside the text
        assert text + 20 <= room, (value, chosen.text_content(), text, room)
        expect(page.locator("#roll-visibility-badge")).to_have_text(chosen.text_content() or "")
    bo.assert_fits(375)
    spans = page.locator("#history .history-head").evaluate(ONE_LINE)
    assert len(spans) == 3  # the title, the filter, the exports
    top = max(span[0] for span in spans)
    assert all(span[1] > top for span in spans), f"the log's head wraps: {spans}"
    # nor does any part of it break inside ("Roll/s"): each one line of text high
    assert all(span[1] - span[0] <= 40 for span in spans), f"a part of the head wraps: {spans}"
    page.screenshot(path=artifacts / "phone-polish-375.png")
    page.locator("#log").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "phone-polish-log-375.png")


def test_a_compel_offered_is_told_above_the_log(
    gm_and_phone: Callable[..., Any], artifacts: Path, fate_sheet: str
) -> None:
    gm, bo, _ = gm_and_phone("Compelled", "fate", "Bo", fate_sheet, "Bob (fate)")
    notice = bo.page.locator("#compel-notice")
    expect(notice).to_be_hidden()
    gm.page.select_option("#gm-member", label="Bob")
    gm.page.fill("#gm-compel-aspect", "Hot-headed")
    gm.page.fill("#gm-compel-text", "You pick a fight with the harbour master.")
    gm.page.click("#gm-compel")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("The GM compels Hot-headed: You pick a fight")
    log = bo.page.locator("#log")
    assert notice.evaluate("(node, log) => log.firstElementChild === node", log.element_handle())
    expect(gm.page.locator("#compel-notice")).to_be_hidden()  # told to the compelled alone
    bo.page.screenshot(path=artifacts / "phone-polish-compel-375.png")
    notice.locator("button.to-compel").click()
    accept = bo.page.locator("#compels .compel button.accept")
    expect(accept).to_be_focused()
    expect(accept).to_be_in_viewport()
    accept.click()
    expect(notice).to_be_hidden()  # answered: told no more
    expect(bo.page.locator("#compels .compel")).to_have_count(0)
