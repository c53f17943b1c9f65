"""The cabinet's link to its operator's fleet (its join file: :mod:`fleet.join_file`): the
sender that runs in the display process (:mod:`~cabinet.link.sender`) and the link's state
for ``spit-cabinet fleet status``, the service menu and ``doctor``
(:mod:`~cabinet.link.status`). The outbox it sends is :mod:`cabinet.storage.outbox`; the
wire format, :mod:`fleet.wire`. See ``docs/fleet.md``.

>>> from cabinet.link.status import LinkStatus
>>> LinkStatus(None, "00ff00ff00ff00ff", False, "", 0, 0, "", {}).lines()
['fleet: none (the cabinet opens no connection)']
"""

__all__ = ["connection", "down", "link_store", "membership", "sender", "status"]
