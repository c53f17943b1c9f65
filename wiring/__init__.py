"""The pin map as data: model, default map, validation and diagram (standard library only)."""
