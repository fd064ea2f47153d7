"""Train a small maskable policy-gradient agent for Basra against the random player (CPU, torch).

    pip install -e ".[learn]"       # torch==2.13.0 (CPU), plus the rl extra
    PYTHONPATH=src python examples/train_basra.py --minutes 3

REINFORCE with a learned baseline (a value head), on :class:`kafenio.rl.gym.KafenioGymEnv`:
the agent sits at seat 0 of 2-player Egyptian Basra and the other seat is kafenio's random
player. Illegal actions get logit −∞ from ``action_masks()``, so the policy only ever samples
legal moves. The per-step reward is the change of the deal-score **margin** (own side minus the
opponent's, from ``info["side_scores"]``); returns are discounted (``--gamma``) to credit the
moves near a capture, and advantages are normalised per batch.
Several environments run in lockstep so that one forward pass serves them all.

Before and after training, the greedy policy plays the same evaluation deals (seeds 10⁶ …)
against the random player; it prints the win rate (ties count half) and the mean margin, next
to random against random on those deals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from kafenio.rl.gym import KafenioGymEnv

EVAL_SEED = 1_000_000


class Policy(nn.Module):
    """An MLP with a policy head (masked logits over the action ids) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(masked logits (B, A), values (B,))`` for observations (B, O) and bool masks (B, A)."""
        h = self.body(obs)
        return self.logits(h).masked_fill(~mask, float("-inf")), self.value(h).squeeze(-1)


def margin(info: dict) -> float:
    """Seat 0's side score minus the other side's (2 sides)."""
    own, other = info["side_scores"]
    return float(own - other)


def evaluate(policy: Policy | None, deals: int) -> tuple[float, float]:
    """Win rate (ties ½) and mean margin of ``policy`` (greedy; ``None`` = random) on fixed deals."""
    env = KafenioGymEnv("basra", preset="egyptian", opponents="random")
    rng = np.random.default_rng(0)
    wins = margins = 0.0
    for i in range(deals):
        obs, info = env.reset(seed=EVAL_SEED + i)
        done = False
        while not done:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                with torch.no_grad():
                    logits, _value = policy(torch.from_numpy(obs)[None], torch.from_numpy(mask)[None])
                action = int(logits.argmax())
            obs, _reward, done, _truncated, info = env.step(action)
        m = margin(info)
        margins += m
        wins += 1.0 if m > 0 else 0.5 if m == 0 else 0.0
    return wins / deals, margins / deals


def new_trace(obs: np.ndarray) -> dict:
    """An empty episode record starting at observation ``obs``."""
    return {"obs": [], "mask": [], "action": [], "reward": [], "last": obs, "margin": 0.0}


def train(minutes: float, envs: int, batch_episodes: int, seed: int, gamma: float, lr: float) -> Policy:
    """Train for ``minutes`` of wall time; prints progress every 50 updates."""
    torch.manual_seed(seed)
    pool = [KafenioGymEnv("basra", preset="egyptian", opponents="random") for _ in range(envs)]
    policy = Policy(pool[0].observation_space.shape[0], int(pool[0].action_space.n))
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    current = [new_trace(env.reset(seed=seed * 1000 + k)[0]) for k, env in enumerate(pool)]
    finished: list[dict] = []
    episodes = updates = 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        obs = torch.from_numpy(np.stack([t["last"] for t in current]))
        mask = torch.from_numpy(np.stack([env.action_masks() for env in pool]))
        with torch.no_grad():
            logits, _value = policy(obs, mask)
        actions = torch.distributions.Categorical(logits=logits).sample().tolist()
        for k, (env, trace) in enumerate(zip(pool, current, strict=True)):
            trace["obs"].append(obs[k])
            trace["mask"].append(mask[k])
            trace["action"].append(actions[k])
            next_obs, _reward, done, _truncated, info = env.step(actions[k])
            m = margin(info)
            trace["reward"].append(m - trace["margin"])
            trace["margin"], trace["last"] = m, next_obs
            if done:
                finished.append(trace)
                episodes += 1
                current[k] = new_trace(env.reset()[0])
        if len(finished) >= batch_episodes:
            update(policy, optimizer, finished, gamma)
            finished = []
            updates += 1
            if updates % 50 == 0:
                print(f"  {episodes} episodes, {updates} updates", flush=True)
    return policy


def discounted(rewards: list[float], gamma: float) -> list[float]:
    """The return from each step on: ``G_t = r_t + gamma · G_{t+1}``."""
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return out[::-1]


def update(policy: Policy, optimizer: torch.optim.Optimizer, episodes: list[dict], gamma: float) -> None:
    """One REINFORCE step with the value head as baseline (advantages normalised per batch)."""
    obs = torch.stack([o for e in episodes for o in e["obs"]])
    mask = torch.stack([m for e in episodes for m in e["mask"]])
    actions = torch.tensor([a for e in episodes for a in e["action"]])
    returns = torch.tensor([g for e in episodes for g in discounted(e["reward"], gamma)],
                           dtype=torch.float32) / 10.0
    logits, values = policy(obs, mask)
    log_probs = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    advantage = (returns - values).detach()
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-6)
    loss = -(log_probs * advantage).mean() + 0.5 * ((returns - values) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def main() -> None:
    parser = argparse.ArgumentParser(description="REINFORCE with baseline on Basra against the random player")
    parser.add_argument("--minutes", type=float, default=3.0, help="training wall time")
    parser.add_argument("--envs", type=int, default=16, help="environments stepped in lockstep")
    parser.add_argument("--batch-episodes", type=int, default=32, help="episodes per update")
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gamma", type=float, default=0.9, help="discount of the per-step margin changes")
    parser.add_argument("--lr", type=float, default=2e-3)
    args = parser.parse_args()
    torch.set_num_threads(1)
    random_rate, random_margin = evaluate(None, args.eval_deals)
    print(f"random  vs random: win rate {random_rate:.3f}, mean margin {random_margin:+.2f} "
          f"({args.eval_deals} deals)")
    start = time.monotonic()
    policy = train(args.minutes, args.envs, args.batch_episodes, args.seed, args.gamma, args.lr)
    print(f"trained for {(time.monotonic() - start) / 60:.1f} min")
    rate, mean_margin = evaluate(policy, args.eval_deals)
    print(f"trained vs random: win rate {rate:.3f}, mean margin {mean_margin:+.2f} ({args.eval_deals} deals)")


if __name__ == "__main__":
    main()
