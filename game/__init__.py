"""The rules engine, referee, CPU players and match records: pure, standard library only."""
