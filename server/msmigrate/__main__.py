"""Allow ``python -m msmigrate``."""

from msmigrate.cli import main

if __name__ == "__main__":
    main()
