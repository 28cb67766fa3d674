"""A ReFrame configuration for pstswm's library: this machine and a Slurm cluster.

`local:default` runs on this machine with ReFrame's local scheduler and pstswm's launcher
scripts/pstrun (`pstrun -n N`; PSTRUN_MPI picks the MPI build, as for pstrun itself);
`cluster:emulated` submits to Slurm (the squeue scheduler: it needs no accounting database) and
launches with srun (SLURM_MPI_TYPE picks the PMI).  A site adds the library's checks to its own
configuration instead: docs/howto-reframe.md.
"""

import os
import shutil
from pathlib import Path

from reframe.core.backends import register_launcher
from reframe.core.launchers import JobLauncher


def _pstrun() -> str:
    """$PSTSWM_PSTRUN; else the pstrun beside this file: the checkout's scripts/pstrun, or P/bin/pstrun
    of an install into P (this file being P/share/pstswm/reframe/settings.py); else pstrun on PATH."""
    here = Path(__file__).resolve()
    beside = [here.parents[2] / "scripts" / "pstrun", here.parents[3] / "bin" / "pstrun"]
    found = next((str(p) for p in beside if p.is_file()), None)
    return os.environ.get("PSTSWM_PSTRUN") or found or shutil.which("pstrun") or "pstrun"


@register_launcher("pstrun")
class PstrunLauncher(JobLauncher):
    """pstswm's launcher: run-as-root, oversubscription and each MPI's own flags (scripts/pstrun)."""

    def command(self, job):
        return [_pstrun(), "-n", str(job.num_tasks)]


site_configuration = {
    "systems": [
        {
            "name": "local",
            "descr": "this machine: the local scheduler, scripts/pstrun",
            "hostnames": [".*"],
            "partitions": [
                {
                    "name": "default",
                    "scheduler": "local",
                    "launcher": "pstrun",
                    "environs": ["builtin"],
                    "max_jobs": 1,
                }
            ],
        },
        {
            "name": "cluster",
            "descr": "a Slurm cluster: sbatch, squeue, srun",
            "hostnames": [".*"],
            "partitions": [
                {
                    "name": "emulated",
                    "scheduler": "squeue",
                    "launcher": "srun",
                    "environs": ["builtin"],
                    "max_jobs": 1,
                }
            ],
        },
    ],
    # "builtin", the environment the partitions name, is ReFrame's own: pstswm needs no modules.
}
