"""The run console in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
driven by Selenium) over a real uvicorn on loopback: the run list at 1280×800 and at a phone's
390×844 without sideways scrolling, a click into a run, and screenshots of each page kept under
``tests/artifacts/console/`` (git ignores the folder)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.scenario import run_transcript
from factledger.adapters.config.sections import StoreSettings
from factledger.adapters.demo.incident import demo_settings, transcript_path
from factledger.adapters.http import ApiOptions, create_app
from factledger.application.run_access import token_principal
from tests.integration.http.serving import serving

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "console"
TOKEN = "console-browser-token"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _arrived(browser: Any, at: Callable[[str], bool]) -> None:
    """Wait for the navigation a click started (the click returns before the new page is
    there): up to 10 s for its URL, then the new page's ``main`` to be attached."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda driver: at(driver.current_url))
    WebDriverWait(browser, 10).until(lambda driver: driver.find_element(By.TAG_NAME, "main"))


def _require_chromium() -> None:
    if not (CHROMIUM.exists() and DRIVER.exists()):
        pytest.fail(
            "the browser tests need Debian's chromium and chromium-driver: run "
            "`bash scripts/ensure_chromium.sh` (apt-get install -y chromium chromium-driver)"
        )


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """The console over the demo incident with one run of each scenario, behind a token."""
    settings = demo_settings(tmp_path_factory.mktemp("console"), StoreSettings(kind="memory"))
    with build_harness(settings) as harness:
        ids = {
            scenario: run_transcript(
                harness, transcript_path(scenario), principal=token_principal(TOKEN)
            ).run_id
            for scenario in ("honest", "hallucinating", "looping")
        }
        with serving(create_app(harness, ApiOptions(token=TOKEN))) as url:
            yield url, ids


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.set_page_load_timeout(20)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def _size(driver: Any, name: str) -> None:
    width, height = SIZES[name]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"},
    )


def _sideways_overflow(driver: Any) -> int:
    overflow: int = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return overflow


def _shot(driver: Any, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 1000
    return path


@pytest.mark.parametrize("size", list(SIZES))
def test_the_run_list_reads_at_desktop_and_phone_width_and_opens_a_run(
    browser: Any, console: tuple[str, dict[str, str]], size: str
) -> None:
    from selenium.webdriver.common.by import By

    url, ids = console
    _size(browser, size)
    browser.get(f"{url}/ui/?token={TOKEN}")  # signs in: the cookie is set, the token dropped
    assert browser.current_url == f"{url}/ui/"
    text = browser.find_element(By.TAG_NAME, "main").text
    for run_id in ids.values():
        assert run_id in text
    assert "FALLBACK" in text
    assert "EVIDENCE_VALIDATION_FAILED" in text
    header = browser.find_element(By.CSS_SELECTOR, "table.cards thead")
    assert header.is_displayed() is (size == "desktop")  # a phone gets one card per run
    assert _sideways_overflow(browser) <= 0
    _shot(browser, f"runs-{size}")

    browser.find_element(By.LINK_TEXT, ids["hallucinating"]).click()
    _arrived(browser, lambda url: url.endswith(f"/ui/runs/{ids['hallucinating']}"))
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Citations and guard verdicts" in page
    assert "UNKNOWN_TOOL_CALL: NOT_IN_RUN" in page
    assert "verifies" in page
    assert "query_logs" in page
    assert _sideways_overflow(browser) <= 0
    _shot(browser, f"run-{size}")


def test_the_filter_form_narrows_the_list_to_an_outcome(
    browser: Any, console: tuple[str, dict[str, str]]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    url, ids = console
    _size(browser, "desktop")
    browser.get(f"{url}/ui/?token={TOKEN}")
    Select(browser.find_element(By.NAME, "outcome")).select_by_value("SUCCESS")
    browser.find_element(By.CSS_SELECTOR, "form.filters button").click()
    _arrived(browser, lambda url: "outcome=SUCCESS" in url)
    text = browser.find_element(By.TAG_NAME, "main").text
    assert ids["honest"] in text
    assert ids["hallucinating"] not in text
    _shot(browser, "runs-success-only")


def test_without_the_token_the_console_says_how_to_sign_in(
    browser: Any, console: tuple[str, dict[str, str]]
) -> None:
    from selenium.webdriver.common.by import By

    url, ids = console
    browser.delete_all_cookies()
    browser.get(f"{url}/ui/runs/{ids['honest']}")
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "UNAUTHORIZED" in text
    assert ids["honest"] not in text


def test_the_artifacts_folder_is_ignored_by_git() -> None:
    ignored = (Path(__file__).resolve().parent.parent.parent / ".gitignore").read_text()
    assert "tests/artifacts/" in ignored.splitlines()
