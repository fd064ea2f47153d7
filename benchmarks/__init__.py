"""kafenio's benchmark command (``python -m benchmarks.run``) and the anchors it compares against."""
