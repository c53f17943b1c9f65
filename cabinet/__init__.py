"""Everything that touches the world: input, display, lights, sound, storage, menus and the CLI."""
