"""Writes the app's table sounds (short mono 16-bit WAVs) from a few sine tones.

The sounds are our own work, synthesised here and dedicated to the public domain (CC0); running
this script again reproduces the files byte for byte. Kept tiny so web mode loads them at once."""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
HERE = Path(__file__).resolve().parent


def tone(freq: float, ms: int, volume: float = 0.5, decay: float = 8.0) -> list[float]:
    """A sine with a fast attack and an exponential fade, so it clicks in and out cleanly."""
    n = RATE * ms // 1000
    out = []
    for i in range(n):
        tt = i / RATE
        env = min(1.0, i / (RATE * 0.004)) * math.exp(-decay * tt / (ms / 1000))
        out.append(volume * env * math.sin(2 * math.pi * freq * tt))
    return out


def write(name: str, samples: list[float]) -> None:
    with wave.open(str(HERE / f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32000)) for s in samples))


SOUNDS = {
    "play": tone(520, 70, 0.45, 6),  # a card laid down
    "special": tone(660, 110, 0.4) + tone(990, 160, 0.4),  # a take, clear, slap, sale
    "refuse": tone(170, 160, 0.5, 3),  # a move the rules refuse
    "win": tone(523, 120, 0.4) + tone(659, 120, 0.4) + tone(784, 260, 0.45),
    "lose": tone(392, 180, 0.4) + tone(294, 320, 0.4),
}

if __name__ == "__main__":
    for sound_name, data in SOUNDS.items():
        write(sound_name, data)
