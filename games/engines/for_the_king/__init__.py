"""Pure rules of For the King (and Me): no Django here. The rules object is ``rules.RULES``."""
