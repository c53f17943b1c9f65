"""Updates the cabinet takes: signed releases, verified with TUF against the route's root
of trust before anything of them is installed (docs/releases.md).

- :mod:`cabinet.updates.verify`: a release checked whole (metadata, manifest, every
  wheel), or refused with one line saying why;
- :mod:`cabinet.updates.sources`: where a release is read from (a stick's folder);
- :mod:`cabinet.updates.https`: from the fleet server, a cut download resumed;
- :mod:`cabinet.updates.staging`: a release checked while the cabinet plays, kept to be
  verified again and installed at a safe moment;
- :mod:`cabinet.updates.watch`: a release the fleet offered, taken step by step.

>>> from cabinet.updates.verify import why
>>> from tuf.api.exceptions import ExpiredMetadataError
>>> why(ExpiredMetadataError("timestamp.json is expired"))
'the release has expired (the operator signs it again to renew it)'
"""

__all__ = ["https", "sources", "staging", "verify", "watch"]
