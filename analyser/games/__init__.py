"""One package per game; each registers a GameSpec in analyser.engine.registry."""
