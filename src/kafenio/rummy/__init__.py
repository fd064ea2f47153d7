"""The rummy core Biriba and Buraco share: the meld model (:mod:`.melds`), meld searches
(:mod:`.search`), the action space and notation (:mod:`.actions`), the deal's turn machine
(:mod:`.state`), legality (:mod:`.legal`) and scoring building blocks (:mod:`.scoring`)."""

from kafenio.rummy.melds import Meld, MeldRules, can_complete, layoff_options, validate

__all__ = ["Meld", "MeldRules", "can_complete", "layoff_options", "validate"]
