import pytest

from rnnrepro.ribeiro import train_artifacts as ta


def test_cli_offers_only_the_language_model():
    with pytest.raises(SystemExit):
        ta.main(["wss_good"])
