"""Pure rules engines for Lanes, Lopti and Spit (no UI, storage, network, clock or global RNG)."""
