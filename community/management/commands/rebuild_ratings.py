from django.core.management.base import BaseCommand

from community.ratings import rebuild_all


class Command(BaseCommand):
    help = "Derive every rating again from the finished matches (ratings are a projection)."

    def handle(self, *args, **options):
        rated = rebuild_all()
        self.stdout.write(f"Rated {rated} finished matches.")
