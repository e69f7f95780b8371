"""The report's sections by the names ``--section`` takes, with their titles."""
TITLES = {"seats": "Seats", "players": "Player counts", "rules": "Rule settings", "policies": "Policies",
          "skill": "Skill and luck", "shape": "Shape of a game"}
