from django.apps import AppConfig


class LdbappConfig(AppConfig):
    name = "ldbapp"
    default_auto_field = "django.db.models.BigAutoField"
