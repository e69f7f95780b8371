"""Game-agnostic machinery: cards, random streams, policies, the registry, the runner."""
