"""A cuff that forgets its bond after each link, over the real stack (docs/omron.md §6; bond_memory.py): from the radio's
events, every link the cuff served encrypted was paired on that link — a link over the key bluetoothd kept can only fail
— and at least two links were, so cuffd paired anew after a link had ended.
"""
from __future__ import annotations

from .outcome import Outcome
from .scenario import Cuff


def links(cuff: Cuff, events: list[dict]) -> list[list[dict]]:
    """The cuff's events, one list per link, from its `connected` to the next."""
    split: list[list[dict]] = []
    for event in events:
        if event['cuff'] != cuff.address:
            continue
        if event['event'] == 'connected':
            split.append([])
        if split:
            split[-1].append(event)
    return split


def check_fresh_bonds(cuff: Cuff, events: list[dict], outcome: Outcome):
    summary = [(any(e['event'] == 'encrypted' and e.get('on') for e in link), any(e['event'] == 'paired' for e in link))
               for link in links(cuff, events)]
    bonded = sum(1 for _, paired in summary if paired)
    over_old_key = [index for index, (encrypted, paired) in enumerate(summary) if encrypted and not paired]
    forgotten = sum(1 for e in events if e['event'] == 'forgot-bond' and e['cuff'] == cuff.address)
    outcome.check(f'{cuff.address}: at least two links, each encrypted one over a bond made on it', bonded >= 2 and not over_old_key,
                  f'links (encrypted, paired) {summary}; encrypted over an old key: links {over_old_key}; bonds forgotten {forgotten}')
