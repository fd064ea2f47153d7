"""What every game shares: the Game/State contract, rules, errors, records and matches."""
