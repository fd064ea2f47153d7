"""Train a small maskable policy-gradient agent for Basra against the random player (CPU, torch).

    pip install -e ".[learn]"       # torch==2.13.0 (CPU), plus the rl extra
    PYTHONPATH=src python examples/train_basra.py --minutes 3

The agent sits at seat 0 of 2-player Egyptian Basra (:class:`kafenio.rl.gym.KafenioGymEnv`,
the dealer alternating) and the other seat is kafenio's random player.

**Policy.** Every legal action gets a score from a small MLP over that action's features; the
policy is the softmax of the scores over the legal actions only (the mask), so it never samples
an illegal move. The features are read from the learner's observation tensor
(``docs/observations.md``: own hand, floor, seen cards, the card whose capture is pending,
stock, captured cards) and the game's public capture rules (``FishingState.outcomes`` on a
probe position holding only the public floor, as ``kafenio.agents.heuristic_basra`` does):
what the move takes now (cards, card points, basra points, a sweep), what it leaves on the floor
(cards, card points, a lone card the next player could take as a basra, cards a jack would
sweep) and how many cards of the relevant ranks are still unseen (``basra.md`` §3–§5). Nothing
else of the state is read.

**Learning.** REINFORCE with a value baseline (a second MLP on the observation), advantages
normalised per batch, a small entropy bonus. The reward of a learner step is the change of the
deal-score **margin** (own side minus the opponent's, from ``info["side_scores"]``) up to the
learner's next turn, so the random player's captures count against it; returns are discounted
(``--gamma``). Several environments run in lockstep so one forward pass serves them all.

**Evaluation.** The greedy policy (highest score) plays fixed deals (seeds 10⁶ …) against the
random player, and random plays random on the same deals. Printed: win rate (ties count half)
with a 95 % Wilson interval, and the mean deal-score margin with a 95 % normal interval.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import torch
from torch import nn

from kafenio.cards import RANK
from kafenio.fishing.state import FLOOR_ORDER, NUM_PLAY
from kafenio.rl.gym import KafenioGymEnv

EVAL_SEED = 1_000_000
JACK = 11
NUM_FEATURES = 17


def make_env() -> KafenioGymEnv:
    """The training and evaluation environment: Egyptian Basra, seat 0 against random."""
    return KafenioGymEnv("basra", preset="egyptian", opponents="random")


class ActionFeatures:
    """Features of each legal action, from the learner's observation and the public rules.

    Args:
        env: an environment of the game (its rules: card points, capture rules).
    """

    def __init__(self, env: KafenioGymEnv):
        game = env.game
        self.points = np.array(game.card_points[:NUM_PLAY], dtype=np.float32)
        self.ranks = np.array([RANK[c] for c in range(NUM_PLAY)])
        self.probe = game.position([], [[] for _s in range(game.num_players())], to_play=0)
        # the tail of the observation: ... captured cards per side (0 during the deal while the
        # rules hide the piles, capture_tally_visibility), basra points per side, stock
        sides = game.num_sides
        self.captured = 4 * 52 + 2 * game.num_players()
        self.stock = self.captured + 2 * sides

    def outcomes(self, floor: list[int], card: int) -> list[tuple[tuple[int, ...], int]]:
        """What ``card`` may take from the public ``floor``: ``[(floor positions, basra points)]``."""
        probe = self.probe
        probe.floor, probe.cards_left, probe.lone_trail = floor, 2, None
        return probe.outcomes(card)

    def __call__(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """``(len(legal), NUM_FEATURES)`` float32: one row per legal action id."""
        floor = sorted(np.flatnonzero(obs[52:104]).tolist(), key=FLOOR_ORDER.__getitem__)
        known = np.minimum(obs[:52] + obs[104:156], 1.0)   # own hand and every card seen face up
        unseen = np.bincount(self.ranks, weights=1.0 - known, minlength=14)    # per rank
        context = (obs[self.stock], obs[self.captured] - obs[self.captured + 1])  # stock; own − other
        pending = np.flatnonzero(obs[156:208])
        rows = np.zeros((len(legal), NUM_FEATURES), dtype=np.float32)
        for i, action in enumerate(legal.tolist()):
            if action < NUM_PLAY:
                card = action
                options = self.outcomes(floor, card)
                option, bonus = options[0] if options else ((), 0)   # most cards first
                choice = len(options) > 1
            else:
                card = int(pending[0])
                option, bonus = self.outcomes(floor, card)[action - NUM_PLAY]
                choice = False
            rows[i] = self.row(floor, card, option, bonus, choice, unseen, context)
        return rows

    def row(self, floor: list[int], card: int, option: tuple[int, ...], bonus: int, choice: bool,
            unseen: np.ndarray, context: tuple[float, float]) -> list[float]:
        """The features of playing ``card`` and taking the floor positions ``option`` (``()``:
        trail); ``context``: stock left and the captured-cards lead, from the observation."""
        points = self.points
        taken = [floor[i] for i in option]
        left = [c for i, c in enumerate(floor) if i not in option] + ([] if option else [card])
        left_points = float(sum(points[c] for c in left))
        lone = left[0] if len(left) == 1 else None
        live_left = sum(unseen[RANK[c]] for c in left)
        return [
            1.0,
            bool(option), (len(taken) + 1) / 5.0 if option else 0.0,
            (sum(points[c] for c in taken) + points[card]) / 3.0 if option else 0.0,
            bonus / 10.0, not left, choice,
            points[card] / 3.0, RANK[card] == JACK, unseen[RANK[card]] / 4.0,
            len(left) / 5.0, left_points / 3.0,
            0.0 if lone is None else unseen[RANK[lone]] / 4.0,
            unseen[JACK] / 4.0 * (len(left) / 5.0 + left_points / 3.0),
            live_left / 8.0, *context,
        ]


class Policy(nn.Module):
    """An action scorer (features → score, masked softmax over legal actions) and a value MLP."""

    def __init__(self, obs_size: int, hidden: int = 64):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(NUM_FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                                   nn.ReLU(), nn.Linear(hidden, 1))
        self.value = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def logits(self, features: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        """``(B, K)`` logits for padded action features ``(B, K, F)`` and a bool mask ``(B, K)``."""
        return self.score(features).squeeze(-1).masked_fill(~valid, float("-inf"))


def pad(rows: list[np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack per-decision feature rows ``(k_i, F)`` into ``(B, K, F)`` and a bool mask ``(B, K)``."""
    k = max(len(r) for r in rows)
    features = np.zeros((len(rows), k, NUM_FEATURES), dtype=np.float32)
    valid = np.zeros((len(rows), k), dtype=bool)
    for b, r in enumerate(rows):
        features[b, :len(r)] = r
        valid[b, :len(r)] = True
    return torch.from_numpy(features), torch.from_numpy(valid)


def margin(info: dict) -> float:
    """Seat 0's side score minus the other side's (2 sides)."""
    own, other = info["side_scores"]
    return float(own - other)


def evaluate(policy: Policy | None, deals: int) -> tuple[list[float], list[float]]:
    """Each deal's result (1 win, ½ tie, 0 loss) and margin for ``policy`` (greedy; ``None`` =
    uniformly random legal moves) on the fixed evaluation deals, dealer alternating."""
    env = make_env()
    featurize = ActionFeatures(env)
    rng = np.random.default_rng(0)
    results, margins = [], []
    for i in range(deals):
        obs, info = env.reset(seed=EVAL_SEED + i, options={"dealer": i % 2})
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            if policy is None:
                action = int(rng.choice(legal))
            else:
                with torch.no_grad():
                    scores = policy.score(torch.from_numpy(featurize(obs, legal))).squeeze(-1)
                action = int(legal[int(scores.argmax())])
            obs, _reward, done, _truncated, info = env.step(action)
        m = margin(info)
        margins.append(m)
        results.append(1.0 if m > 0 else 0.5 if m == 0 else 0.0)
    return results, margins


def summary(results: list[float], margins: list[float]) -> str:
    """Win rate with its 95 % Wilson interval and mean margin with its 95 % normal interval."""
    n = len(results)
    p = sum(results) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    mean = float(np.mean(margins))
    spread = z * float(np.std(margins, ddof=1)) / math.sqrt(n)
    return (f"win rate {p:.3f} [{centre - half:.3f}, {centre + half:.3f}], "
            f"mean margin {mean:+.2f} [{mean - spread:+.2f}, {mean + spread:+.2f}] ({n} deals)")


class Trace:
    """One episode being recorded: features, chosen index, observation and reward per decision."""

    def __init__(self, obs: np.ndarray):
        self.rows: list[np.ndarray] = []
        self.choices: list[int] = []
        self.obs: list[np.ndarray] = []
        self.rewards: list[float] = []
        self.last = obs
        self.margin = 0.0


def train(minutes: float, envs: int, batch_episodes: int, seed: int, gamma: float, lr: float,
          entropy: float) -> Policy:
    """Train for ``minutes`` of wall time; prints progress every 50 updates."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    pool = [make_env() for _k in range(envs)]
    featurize = ActionFeatures(pool[0])
    policy = Policy(pool[0].observation_space.shape[0])
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    deals = seed * 1_000_000

    def start(env: KafenioGymEnv) -> Trace:
        nonlocal deals
        deals += 1
        return Trace(env.reset(seed=deals, options={"dealer": deals % 2})[0])

    current = [start(env) for env in pool]
    finished: list[Trace] = []
    episodes = updates = 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        legal = [np.flatnonzero(env.action_masks()) for env in pool]
        rows = [featurize(t.last, lg) for t, lg in zip(current, legal, strict=True)]
        features, valid = pad(rows)
        with torch.no_grad():
            probs = torch.softmax(policy.logits(features, valid), -1).numpy()
        for k, (env, trace) in enumerate(zip(pool, current, strict=True)):
            p = probs[k, :len(legal[k])].astype(np.float64)
            choice = int(rng.choice(len(p), p=p / p.sum()))
            trace.rows.append(rows[k])
            trace.choices.append(choice)
            trace.obs.append(trace.last)
            next_obs, _reward, done, _truncated, info = env.step(int(legal[k][choice]))
            m = margin(info)
            trace.rewards.append(m - trace.margin)
            trace.margin, trace.last = m, next_obs
            if done:
                finished.append(trace)
                episodes += 1
                current[k] = start(env)
        if len(finished) >= batch_episodes:
            update(policy, optimizer, finished, gamma, entropy)
            finished = []
            updates += 1
            if updates % 50 == 0:
                print(f"  {episodes} episodes, {updates} updates", flush=True)
    print(f"  {episodes} episodes, {updates} updates in all")
    return policy


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The return from each step on: ``G_t = r_t + gamma · G_{t+1}``."""
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def update(policy: Policy, optimizer: torch.optim.Optimizer, episodes: list[Trace], gamma: float,
           entropy: float) -> None:
    """One REINFORCE step with the value MLP as baseline (advantages normalised per batch)."""
    features, valid = pad([r for e in episodes for r in e.rows])
    choices = torch.tensor([c for e in episodes for c in e.choices])
    obs = torch.from_numpy(np.stack([o for e in episodes for o in e.obs]))
    returns = torch.tensor([g for e in episodes for g in discounted(e.rewards, gamma)],
                           dtype=torch.float32) / 10.0
    log_probs = torch.log_softmax(policy.logits(features, valid), -1)
    chosen = log_probs.gather(1, choices[:, None]).squeeze(1)
    values = policy.value(obs).squeeze(-1)
    advantage = (returns - values).detach()
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
    spread = -(log_probs.exp() * log_probs.masked_fill(~valid, 0.0)).sum(-1).mean()
    loss = -(chosen * advantage).mean() + 0.5 * ((returns - values) ** 2).mean() - entropy * spread
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def main() -> None:
    parser = argparse.ArgumentParser(description="A maskable policy-gradient agent on Basra against the random player")
    parser.add_argument("--minutes", type=float, default=3.0, help="training wall time")
    parser.add_argument("--envs", type=int, default=16, help="environments stepped in lockstep")
    parser.add_argument("--batch-episodes", type=int, default=32, help="episodes per update")
    parser.add_argument("--eval-deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gamma", type=float, default=0.9, help="discount of the per-step margin changes")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01, help="weight of the entropy bonus")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("random  vs random:", summary(*evaluate(None, args.eval_deals)), flush=True)
    start = time.monotonic()
    policy = train(args.minutes, args.envs, args.batch_episodes, args.seed, args.gamma, args.lr, args.entropy)
    print(f"trained for {(time.monotonic() - start) / 60:.1f} min")
    print("trained vs random:", summary(*evaluate(policy, args.eval_deals)))


if __name__ == "__main__":
    main()
