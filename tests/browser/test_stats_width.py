"""The statistics table on a phone (issue 29): at 390 and 320 px every column is on the screen, the
table no wider than its box, the page not scrolling sideways; each sort header still a 44 px target."""

import pytest

from tests.browser.live import browser, live_url, shot  # noqa: F401  (fixtures)
from tests.browser.test_archive_browser import _archive

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const box = document.querySelector('.table-scroll');
  const table = box.querySelector('table.stats');
  const view = document.documentElement.clientWidth;
  const cells = Array.from(table.querySelectorAll('tr:first-child th')).map((th) => {
    const r = th.getBoundingClientRect();
    return [th.textContent.trim(), Math.round(r.left), Math.round(r.right)];
  });
  const small = Array.from(table.querySelectorAll('th a')).map((a) => {
    const r = a.getBoundingClientRect();
    return [a.textContent.trim(), Math.round(r.width), Math.round(r.height)];
  }).filter(([, w, h]) => w < 44 || h < 44);
  const overflowing = Array.from(table.querySelectorAll('td, th a'))
    .filter((el) => el.scrollWidth > el.clientWidth + 0.5).map((el) => el.textContent.trim());
  return {view, overflowing, box: Math.round(box.clientWidth), table: Math.round(table.getBoundingClientRect().width),
          scrolls: box.scrollWidth > box.clientWidth, page: document.documentElement.scrollWidth, cells, small};
}"""


@pytest.mark.parametrize("width", [390, 320])
def test_the_statistics_table_fits_a_phone(browser, live_url, width):
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        if width == 390:  # one archive for both widths (the module's live server)
            _archive(page, live_url)
        page.goto(live_url + "/stats")
        m = page.evaluate(MEASURE)
        print(f"{width} px: table {m['table']} px in a box of {m['box']} px; columns {m['cells']}")
        shot(page, f"stats-width-{width}")
        assert m["table"] <= m["box"], m
        assert not m["scrolls"], m
        assert m["page"] <= m["view"], m
        assert all(right <= m["view"] for _, _, right in m["cells"]), m["cells"]
        assert m["small"] == [], m["small"]  # each sort header a 44 x 44 px target
        assert m["overflowing"] == [], m["overflowing"]  # no figure runs into the next column
    finally:
        context.close()
