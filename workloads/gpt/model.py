"""GPT-2 124M as nanoGPT trains it (karpathy/nanoGPT ``model.py`` + ``train.py`` defaults):
12 layers, 12 heads, 768 wide, 1024-token context, vocabulary 50,304, no biases, tied
embeddings, pre-LN, GELU, causal scaled-dot-product attention; AdamW 6e-4 (betas 0.9/0.95,
weight decay 0.1 on matrices only), 2,000 warm-up steps then cosine to 6e-5 over 600,000,
gradient clipping at 1.0, micro-batch 12 with gradient accumulation over 5 x 8 = 40 micro-steps
(divided by the world size; ``--grad-accum`` sets it, runtime/train.py ``_train_step`` does it
as train.py does). Module names follow nanoGPT's, so a state dict maps
one to one. Preset ``gpt2``: the OpenAI GPT-2 checkpoint's shape (``from_pretrained``: biases,
vocabulary 50,257).

Data: ``--make-data DIR`` writes nanoGPT's token files, ``DIR/train.bin`` and ``DIR/val.bin``
(uint16 token ids, one stream, ``data/openwebtext/prepare.py``), with documents of about
OpenWebText's mean length ending in the end-of-text token; ``--data DIR`` reads ``train.bin``
memory-mapped and takes each sequence at a random offset, as nanoGPT's ``get_batch`` does
(drawn per epoch and index, so a resumed run reads the same); a ``meta.pkl`` beside it (nanoGPT's
char-level ``prepare.py``) sets the vocabulary as train.py does, read by an unpickler that builds
plain data only, and a token id beyond the vocabulary is refused with one line. ``--data
file.txt`` trains on a text file's bytes (vocabulary at least 256). Synthetic data on the
device: each next token is a fixed affine map of the current one modulo the vocabulary, a
deterministic function of the context that the loss can learn.
"""

from __future__ import annotations

import io
import math
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import Dataset

from workloads.runtime.seeds import mix_seed
from workloads.runtime.spec import AppSpec, Recipe, Source, Task

SIZES: dict[str, dict[str, Any]] = {
    # train.py: n_layer 12, n_head 12, n_embd 768, block_size 1024, bias False, dropout 0.0,
    # vocab 50304 ("GPT-2 vocab_size of 50257, padded up to nearest multiple of 64");
    # batch_size 12, the micro-batch (line 49), and gradient_accumulation_steps = 5 * 8
    # (line 48), over all ranks: train.py lines 94-95 divide it by the world size
    "default": {"vocab": 50304, "seq_len": 1024, "layers": 12, "heads": 12, "dim": 768,
                "dropout": 0.0, "bias": False, "batch_size": 12, "grad_accum": 5 * 8},
    # model.py from_pretrained('gpt2'): vocab_size 50257, block_size 1024, bias True
    "gpt2": {"vocab": 50257, "seq_len": 1024, "layers": 12, "heads": 12, "dim": 768,
             "dropout": 0.0, "bias": True, "batch_size": 12, "grad_accum": 5 * 8},
    # tests: 2 micro-steps keep the accumulation path exercised and cheap
    "tiny": {"vocab": 64, "seq_len": 16, "layers": 2, "heads": 2, "dim": 32, "dropout": 0.0,
             "bias": False, "batch_size": 2, "grad_accum": 2,
             "recipe": {"lr": 3e-3, "warmup_steps": 5, "decay_steps": 0, "min_lr": 3e-4}},
}

SOURCE = Source(
    repository="karpathy/nanoGPT",
    commit="3adf61e154c3fe3fca428ad6bc3818b27a3b8291",
    path="model.py (GPT, GPTConfig, configure_optimizers, estimate_mfu), train.py (defaults, "
         "get_batch, get_lr, grad_clip, gradient_accumulation_steps), "
         "data/openwebtext/prepare.py (train.bin, uint16)",
)
RECIPE = Recipe(
    optimizer="adamw", lr=6e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1,
    decay_1d=False, schedule="warmup_cosine", warmup_steps=2000, decay_steps=600000,
    min_lr=6e-5, clip_grad_norm=1.0,
    where="nanoGPT 3adf61e train.py: learning_rate 6e-4, beta1 0.9, beta2 0.95, weight_decay "
          "1e-1, grad_clip 1.0, warmup_iters 2000, lr_decay_iters 600000, min_lr 6e-5, "
          "get_lr(); model.py configure_optimizers: decay only on params with dim >= 2; "
          "gradient_accumulation_steps 5 * 8 over all ranks (lines 48, 94-95: divided by the "
          "world size), loss / steps, require_backward_grad_sync on the last micro-step only "
          "(lines 290-312)",
)
_NANOGPT = "karpathy/nanoGPT@3adf61e"


def run_defaults(dev: Any, config: str = "default") -> dict[str, tuple[Any, str]]:
    """nanoGPT's own defaults where a run leaves --precision, --compile and --optimizer-impl
    unset. On CUDA (ROCm builds included): ``dtype = 'bfloat16' if
    torch.cuda.is_bf16_supported() else 'float16'`` and ``compile = True`` (train.py lines
    73-74), fused AdamW for ``device_type == 'cuda'`` (model.py lines 281-283). Elsewhere
    nanoGPT's ``device_type`` is 'cpu': ``ctx = nullcontext()`` (fp32, train.py line 112) and
    no fused AdamW, which are the runtime's defaults too; its ``compile = True`` is not taken
    on the CPU (measured: docs/benchmarks.md, a start cost far above its gain for the runs
    the CPU is used for) nor on XPUs (not tried here)."""
    if getattr(dev, "type", "cpu") != "cuda":
        return {}
    bf16 = torch.cuda.is_bf16_supported()
    return {"precision": ("bf16" if bf16 else "fp16",
                          f"{_NANOGPT} train.py:73 dtype bfloat16 where "
                          f"is_bf16_supported(), else float16"),
            "compile": (True, f"{_NANOGPT} train.py:74 compile = True"),
            "optimizer_impl": ("fused", f"{_NANOGPT} model.py:281-283 fused AdamW on CUDA")}


#: OpenWebText: 9,035,582,198 train tokens (prepare.py) in 8,013,769 documents (HF dataset card)
OWT_MEAN_DOC_TOKENS = 1128
GPT2_VOCAB = 50257  # tokens GPT-2's BPE can emit; the end-of-text token is the last, 50256


class CausalSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float, bias: bool) -> None:
        super().__init__()
        self.heads = heads
        self.dropout = dropout
        self.c_attn = nn.Linear(dim, 3 * dim, bias=bias)
        self.c_proj = nn.Linear(dim, dim, bias=bias)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.c_attn(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.resid_dropout(self.c_proj(y.transpose(1, 2).reshape(b, t, c)))


class MLP(nn.Module):
    def __init__(self, dim: int, dropout: float, bias: bool) -> None:
        super().__init__()
        self.c_fc = nn.Linear(dim, 4 * dim, bias=bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * dim, dim, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float, bias: bool) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim, bias=bias)
        self.attn = CausalSelfAttention(dim, heads, dropout, bias)
        self.ln_2 = nn.LayerNorm(dim, bias=bias)
        self.mlp = MLP(dim, dropout, bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab: int, seq_len: int, layers: int, heads: int, dim: int,
                 dropout: float, bias: bool = True) -> None:
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab, dim), wpe=nn.Embedding(seq_len, dim), drop=nn.Dropout(dropout),
            h=nn.ModuleList(Block(dim, heads, dropout, bias) for _ in range(layers)),
            ln_f=nn.LayerNorm(dim, bias=bias)))
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying, as nanoGPT
        self.apply(self._init)
        for name, p in self.named_parameters():
            if name.endswith("c_proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * layers))

    @staticmethod
    def _init(m: nn.Module) -> None:
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        tr = self.transformer
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = tr.drop(tr.wte(idx) + tr.wpe(pos))
        for blk in tr.h:
            x = blk(x)
        return self.lm_head(tr.ln_f(x))


def build_model(cfg: dict[str, Any]) -> nn.Module:
    return GPT(cfg["vocab"], cfg["seq_len"], cfg["layers"], cfg["heads"], cfg["dim"],
               cfg["dropout"], cfg.get("bias", True))


def _affine(vocab: int) -> tuple[int, int]:
    """A fixed map t -> (a t + b) mod vocab that permutes the vocabulary (a coprime to it)."""
    a = 5
    while math.gcd(a, vocab) != 1:
        a += 2
    return a, 7 % vocab


def make_task(cfg: dict[str, Any], device: torch.device) -> Task:
    vocab, t = cfg["vocab"], cfg["seq_len"]
    a, b = _affine(vocab)
    # token j of a sequence starting at s: (a^j s + b (1 + a + ... + a^(j-1))) mod vocab
    mult, add = [1], [0]
    for _ in range(t):
        mult.append(mult[-1] * a % vocab)
        add.append((add[-1] * a + b) % vocab)
    mult_t = torch.tensor(mult, dtype=torch.int64, device=device)
    add_t = torch.tensor(add, dtype=torch.int64, device=device)

    def task(gen: torch.Generator, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        start = torch.randint(0, vocab, (n, 1), generator=gen, device=device)
        seq = (start * mult_t + add_t) % vocab  # [n, t + 1]
        return seq[:, :-1], seq[:, 1:]

    return task


def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(out.float().reshape(-1, out.shape[-1]), y.reshape(-1))


def units_per_sample(cfg: dict[str, Any]) -> float:
    return float(cfg["seq_len"])  # tokens per sequence


# ---------------------------------------------------------------- nanoGPT's token files
def token_stream(n_tokens: int, vocab: int, seed: int,
                 out: np.ndarray | None = None) -> np.ndarray:
    """uint16 tokens with GPT-2-like statistics: documents of geometric length (mean
    OpenWebText's) each ending in the end-of-text token, tokens following the affine map of
    the synthetic task 70% of the time and drawn from a Zipf law (rank-frequency exponent
    ~1, as natural text) otherwise."""
    rng = np.random.default_rng(seed)
    emit = min(vocab, GPT2_VOCAB)
    eot = emit - 1
    a, b = _affine(emit - 1)
    longest = min(n_tokens, 40 * OWT_MEAN_DOC_TOKENS)
    mult = np.ones(longest, dtype=np.int64)  # as make_task: token j = mult[j] s + add[j]
    add = np.zeros(longest, dtype=np.int64)
    for j in range(1, longest):
        mult[j] = mult[j - 1] * a % (emit - 1)
        add[j] = (add[j - 1] * a + b) % (emit - 1)
    if out is None:  # else an array of n_tokens to fill (make-data: the file, memory-mapped)
        out = np.empty(n_tokens, dtype=np.uint16)
    pos = 0
    while pos < n_tokens:
        length = min(int(rng.geometric(1.0 / OWT_MEAN_DOC_TOKENS)), n_tokens - pos, longest)
        doc = (int(rng.integers(emit - 1)) * mult[:length] + add[:length]) % (emit - 1)
        noise = rng.random(length) < 0.3
        doc[noise] = np.minimum(rng.zipf(1.1, size=int(noise.sum())) - 1, emit - 2)
        doc[-1] = eot
        out[pos:pos + length] = doc
        pos += length
    return out


def write_dataset(path: str, cfg: dict[str, Any], samples: int, seed: int) -> None:
    """nanoGPT's ``train.bin`` (``samples`` sequences of ``seq_len`` + 1 tokens) and a
    ``val.bin`` a tenth of it."""
    t, vocab = cfg["seq_len"], cfg["vocab"]
    for split, count, stream in (("train", samples, 0), ("val", max(samples // 10, 1), 1)):
        # written in place: the file's tokens are never all in memory at once
        arr = np.memmap(Path(path) / f"{split}.bin", dtype=np.uint16, mode="w+",
                        shape=(count * t + 1,))
        token_stream(count * t + 1, vocab, mix_seed(seed, stream, 0), out=arr)
        arr.flush()
        del arr


class TokenBinDataset(Dataset):
    """Sequences from a nanoGPT ``.bin`` token file: index ``i`` of epoch ``e`` starts at a
    random offset in the ``i``-th block of ``seq_len`` tokens (nanoGPT's ``get_batch`` draws
    offsets uniformly; here they are drawn per (seed, epoch, index) and cover the file once
    per epoch)."""

    def __init__(self, file: Path, seq_len: int, seed: int = 0, vocab: int = 1 << 16) -> None:
        from workloads.runtime.safeio import InputError, check_samples, regular_file

        self.file = file
        self.seq_len = seq_len
        self.seed = seed
        self.vocab = vocab
        self.epoch = 0
        self.tokens = regular_file(file, "token file (.bin)") // 2
        self.n = (self.tokens - 1) // seq_len - 1
        if self.n < 1:
            raise InputError(f"{file}: {self.tokens} tokens, too few for sequences of {seq_len}")
        check_samples(file, f"its {self.tokens} tokens", self.n)
        self._data: np.ndarray | None = None

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        if self._data is None:  # opened in each worker
            from workloads.runtime.safeio import regular_file

            regular_file(self.file, "token file (.bin)")
            self._data = np.memmap(self.file, dtype=np.uint16, mode="r")
        t = self.seq_len
        shift = mix_seed(self.seed, self.epoch, i) % t
        w = torch.from_numpy(self._data[i * t + shift: i * t + shift + t + 1].astype(np.int64))
        if len(w) and int(w.max()) >= self.vocab:
            from workloads.runtime.safeio import InputError

            raise InputError(_beyond(self.file, int(w.max()), self.vocab))
        return w[:-1], w[1:]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_data": None}


class TextDataset(Dataset):
    """Byte-level tokens of a text file in non-overlapping windows of seq_len + 1."""

    def __init__(self, path: str, seq_len: int) -> None:
        from workloads.runtime.safeio import check_memory, open_regular, regular_file

        size = regular_file(path, "text file")
        check_memory(path, "the text, one int64 token a byte in a batch", size)
        with open_regular(path, "text file") as fh:
            self.data = np.frombuffer(fh.read(size), dtype=np.uint8)
        self.seq_len = seq_len
        self.n = (len(self.data) - 1) // seq_len
        if self.n < 1:
            raise ValueError(f"{path}: too short for sequence length {seq_len}")

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        w = torch.from_numpy(self.data[i * self.seq_len: (i + 1) * self.seq_len + 1]
                             .astype(np.int64))
        return w[:-1], w[1:]


#: a meta.pkl larger than this is not nanoGPT's (its char-level stoi/itos of a few hundred
#: symbols is a few kB; a byte-level one of all 65,536 uint16 ids would be about 1.5 MB)
META_MAX_BYTES = 16 * 2**20
#: a train.bin up to this size is scanned for token ids beyond the vocabulary before training
#: (one line then); a larger one is checked sequence by sequence as it is read
SCAN_MAX_BYTES = 256 * 2**20


class _MetaUnpickler(pickle.Unpickler):
    """Unpickles plain data only: every global (a class, a function: what a ``__reduce__``
    needs to run code) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"it names {module}.{name}")


def _plain(obj: Any) -> str | None:
    """What in ``obj`` is not a dict, list, int or str (None: nothing)."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif type(x) not in (int, str):
            return f"a {type(x).__name__}"
    return None


def meta_vocab(directory: Path) -> int | None:
    """``vocab_size`` of nanoGPT's ``meta.pkl`` in ``directory`` (None: there is none), as
    train.py reads it (karpathy/nanoGPT@3adf61e train.py lines 139-146). Written by
    data/shakespeare_char/prepare.py: ``{'vocab_size': int, 'itos': {int: str}, 'stoi':
    {str: int}}``. Read with an unpickler that builds dicts, lists, ints and strings only, so
    a pickle that would run code is refused, never run."""
    from workloads.runtime.safeio import InputError, open_regular, regular_file

    file = directory / "meta.pkl"
    if not file.exists() and not file.is_symlink():
        return None
    fix = "remove it, or write it with nanoGPT's prepare.py"
    size = regular_file(file, "nanoGPT meta.pkl")  # a FIFO or device is refused, never read
    if size > META_MAX_BYTES:
        raise InputError(f"{file}: {size:,} bytes, more than nanoGPT's meta.pkl "
                         f"({META_MAX_BYTES:,} at most); {fix}")
    try:
        with open_regular(file, "nanoGPT meta.pkl") as fh:
            meta = _MetaUnpickler(io.BytesIO(fh.read(META_MAX_BYTES + 1))).load()
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - any unpickling failure is one refusal
        raise InputError(f"{file}: not nanoGPT's meta.pkl (dicts, lists, ints and strings "
                         f"only): {exc}; {fix}") from None
    bad = _plain(meta)
    if bad is not None:
        raise InputError(f"{file}: not nanoGPT's meta.pkl (dicts, lists, ints and strings "
                         f"only): it holds {bad}; {fix}")
    vocab = meta.get("vocab_size") if isinstance(meta, dict) else None
    if not isinstance(vocab, int) or isinstance(vocab, bool) or not 1 <= vocab <= 2**16:
        raise InputError(f"{file}: no vocab_size between 1 and 65,536 (uint16 token ids); "
                         f"{fix}")
    return vocab


def _beyond(file: Path, token: int, vocab: int) -> str:
    return (f"{file}: token id {token} is beyond the vocabulary of {vocab} (ids 0-{vocab - 1}); "
            f"write meta.pkl's vocab_size with the data, or choose a --config with a larger "
            f"vocabulary")


def _check_tokens(file: Path, vocab: int) -> None:
    """The largest token id of a small enough ``file`` against the vocabulary."""
    if file.stat().st_size > SCAN_MAX_BYTES or file.stat().st_size < 2:
        return
    data = np.memmap(file, dtype=np.uint16, mode="r")
    top = int(data.max())
    del data
    if top >= vocab:
        from workloads.runtime.safeio import InputError

        raise InputError(_beyond(file, top, vocab))


def _token_file(file: Path, cfg: dict[str, Any]) -> TokenBinDataset:
    """nanoGPT's train.bin with the vocabulary its meta.pkl says (the configuration's when
    there is none: nanoGPT's 50,304 for default)."""
    vocab = meta_vocab(file.parent)
    if vocab is not None:
        cfg["vocab"] = vocab
    dataset = TokenBinDataset(file, cfg["seq_len"], vocab=cfg["vocab"])  # a regular file
    _check_tokens(file, cfg["vocab"])
    return dataset


def open_dataset(path: str, cfg: dict[str, Any]) -> Dataset | None:
    p = Path(path)
    if p.is_dir() and (p / "train.bin").is_file():
        return _token_file(p / "train.bin", cfg)
    if p.is_file() and p.suffix == ".bin":
        return _token_file(p, cfg)
    if p.is_file():
        cfg["vocab"] = max(cfg["vocab"], 256)
        return TextDataset(path, cfg["seq_len"])
    return None  # a directory of .npy shards


APP = AppSpec(name="gpt", build_model=build_model, make_task=make_task, loss_fn=loss_fn,
              sizes=SIZES, default_batch_size=12, tiny_batch_size=2, lr=RECIPE.lr,
              open_dataset=open_dataset, write_dataset=write_dataset, recipe=RECIPE,
              source=SOURCE, unit="tokens", units_per_sample=units_per_sample,
              run_defaults=run_defaults)
