"""The link to the light board: protocol codec, host link, firmware and simulator."""
