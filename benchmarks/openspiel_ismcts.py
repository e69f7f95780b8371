"""The anchor for the compiled ISMCTS: OpenSpiel's own ISMCTS bots, decisions per second on Hearts.

OpenSpiel is not a dependency of the analyser; run this in a venv of its own:

    python3.11 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel
    /tmp/osvenv/bin/python benchmarks/openspiel_ismcts.py [--simulations 100] [--decisions 400]

One thread (OpenSpiel's bots are single-threaded): every seat of a Hearts game is the bot, with
``--simulations`` simulations a decision and random rollouts (one rollout an evaluation), the most
visited action played; decisions are the bot's calls at states with two or more legal actions
(Hearts' pass and play phases). The C++ bot (pyspiel.ISMCTSBot) and the Python one
(open_spiel.python.algorithms.ismcts) are timed on the same deals. The analyser's side of the table
is benchmarks/bench_search.py's ``ismcts:iterations=100`` rate in Enemy Anemone.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

_KEPT = []      # the C++ bot holds its evaluator by reference: it must outlive the bot


def cpp_bot(game, simulations, seed):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    _KEPT.append(evaluator)
    return pyspiel.ISMCTSBot(seed, evaluator, 2.0, simulations, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                             False, False)


def python_bot(game, simulations, seed):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed),
                            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)


def rate(make, game, simulations, decisions, seed=1):
    """Decisions a second of the bot ``make`` builds, over games until ``decisions`` are made."""
    rng = np.random.RandomState(seed)
    made, elapsed, g = 0, 0.0, 0
    while made < decisions:
        bot = make(game, simulations, seed + g)      # one bot plays every seat: it keeps no state between steps
        state = game.new_initial_state()
        while not state.is_terminal() and made < decisions:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            t = time.perf_counter()
            action = bot.step(state)
            elapsed += time.perf_counter() - t
            made += 1
            state.apply_action(action)
        g += 1
    return made / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=400)
    args = parser.parse_args()
    game = pyspiel.load_game("hearts")
    cpp = rate(cpp_bot, game, args.simulations, args.decisions)
    python = rate(python_bot, game, args.simulations, max(40, args.decisions // 10))
    print(f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} ISMCTS on Hearts, "
          f"{args.simulations} simulations a decision, random rollouts, one thread:")
    print(f"| C++ bot (pyspiel.ISMCTSBot) | {cpp:,.0f} decisions/s |")
    print(f"| Python bot (open_spiel.python.algorithms.ismcts) | {python:,.1f} decisions/s |")


if __name__ == "__main__":
    main()
