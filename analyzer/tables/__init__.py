"""From the games table to what a report says: pandas tables summed per batch
(``aggregate``) and the findings read from them (``findings``)."""
