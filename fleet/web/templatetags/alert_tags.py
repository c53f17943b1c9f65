"""``{% alerts_section %}``: the open alerts the signed-in account may see, as a section
(a count and the list), for the route page (:mod:`fleet.web.alerts_page`)."""

from __future__ import annotations

from typing import Any

from django import template

from fleet.web.alerts_page import section_context

register = template.Library()


@register.inclusion_tag("web/alerts_section.html", takes_context=True)
def alerts_section(context: Any) -> dict[str, Any]:
    return section_context(context["request"])
