"""What the user sees: icons, translations, the sample collection for the first run."""

from pathlib import Path

#: Folder of the installed resources (icons/, translations/, sample/).
ROOT = Path(__file__).resolve().parent
