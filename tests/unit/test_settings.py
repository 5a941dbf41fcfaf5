"""factledger.toml and FACTLEDGER_<SECTION>__<KEY> variables, in the documented lookup order."""

from __future__ import annotations

from pathlib import Path

import pytest

from factledger.adapters.config.settings import Settings, SettingsError, load_settings


def _write(folder: Path, text: str, name: str = "factledger.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_without_any_file_the_embedded_defaults_apply(tmp_path: Path) -> None:
    settings = load_settings(environ={}, cwd=tmp_path)
    assert settings == Settings()
    assert settings.store.kind == "sqlite"
    assert settings.store.path == ".factledger/store.db"
    assert settings.vault.ttl_seconds == 7200
    assert settings.progress.no_gain_threshold == 3


def test_an_explicit_file_wins_over_the_environment_variable_and_the_local_file(
    tmp_path: Path,
) -> None:
    explicit = _write(tmp_path, "[vault]\nttl_seconds = 10\n", "explicit.toml")
    from_env = _write(tmp_path, "[vault]\nttl_seconds = 20\n", "env.toml")
    _write(tmp_path, "[vault]\nttl_seconds = 30\n")
    env = {"FACTLEDGER_CONFIG": str(from_env)}
    assert load_settings(explicit, environ=env, cwd=tmp_path).vault.ttl_seconds == 10
    assert load_settings(environ=env, cwd=tmp_path).vault.ttl_seconds == 20
    assert load_settings(environ={}, cwd=tmp_path).vault.ttl_seconds == 30


def test_environment_variables_override_the_file(tmp_path: Path) -> None:
    _write(tmp_path, '[store]\nkind = "sqlite"\npartitions = 4\n')
    env = {
        "FACTLEDGER_STORE__KIND": "redis",
        "FACTLEDGER_STORE__URL": "redis://127.0.0.1:6390/0",
        "FACTLEDGER_BUDGET__TOOL_CALLS": "7",
    }
    settings = load_settings(environ=env, cwd=tmp_path)
    assert settings.store.kind == "redis"
    assert settings.store.url == "redis://127.0.0.1:6390/0"
    assert settings.store.partitions == 4
    assert settings.budget.tool_calls == 7


def test_an_unknown_key_in_the_file_is_named(tmp_path: Path) -> None:
    _write(tmp_path, "[store]\nkinde = 'redis'\n")
    with pytest.raises(SettingsError, match=r"store\.kinde"):
        load_settings(environ={}, cwd=tmp_path)


def test_an_unknown_section_is_named(tmp_path: Path) -> None:
    _write(tmp_path, "[stor]\nkind = 'redis'\n")
    with pytest.raises(SettingsError, match="stor"):
        load_settings(environ={}, cwd=tmp_path)


def test_an_unknown_environment_key_is_named(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"budget\.tool_callz"):
        load_settings(environ={"FACTLEDGER_BUDGET__TOOL_CALLZ": "3"}, cwd=tmp_path)


def test_a_malformed_environment_name_is_named(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="FACTLEDGER_BUDGET"):
        load_settings(environ={"FACTLEDGER_BUDGET": "3"}, cwd=tmp_path)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[store]\nkind = 'postgres'\n", "store.kind"),
        ("[store]\npartitions = 0\n", "store.partitions"),
        ("[vault]\nttl_seconds = 'long'\n", "vault.ttl_seconds"),
        ("[budget]\ndeadline_seconds = -5\n", "budget.deadline_seconds"),
        ("[judge]\nkind = 'vibes'\n", "judge.kind"),
    ],
)
def test_a_bad_value_is_named(tmp_path: Path, text: str, key: str) -> None:
    _write(tmp_path, text)
    with pytest.raises(SettingsError, match=key.replace(".", r"\.")):
        load_settings(environ={}, cwd=tmp_path)


def test_a_file_that_is_not_toml_says_so(tmp_path: Path) -> None:
    _write(tmp_path, "[store\n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(environ={}, cwd=tmp_path)


def test_a_missing_explicit_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings(tmp_path / "nope.toml", environ={}, cwd=tmp_path)
