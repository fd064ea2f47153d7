"""What Biriba and Buraco share: the meld model (:mod:`kafenio.rummy.melds`)."""

from kafenio.rummy.melds import Meld, MeldRules, can_complete, layoff_options, validate

__all__ = ["Meld", "MeldRules", "can_complete", "layoff_options", "validate"]
