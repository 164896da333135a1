"""The one exception type for user mistakes: the CLI prints it as one line and exits 2."""


class JobgenError(Exception):
    """A problem the user can fix: bad input, a broken profile, a request a site cannot run.

    The message names the problem and, where one exists, the fix; it is printed as one line.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
        self.message = " ".join(message.split())

    def __str__(self) -> str:
        return self.message
