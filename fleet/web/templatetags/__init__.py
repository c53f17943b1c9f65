"""The pages' template tags: ``{% load alert_tags %}`` then ``{% alerts_section %}``
puts the open alerts the account may see on a page (the route page's section).

>>> __all__
['alert_tags']
"""

__all__ = ["alert_tags"]
