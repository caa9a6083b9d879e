// Opens a network socket and tries to connect: the sandbox has no network and stops it.
#include <arpa/inet.h>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

int main() {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) {
        std::perror("socket");
        return 1;
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(80);
    inet_pton(AF_INET, "1.1.1.1", &a.sin_addr);
    int r = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    std::printf("connect: %s\n", r == 0 ? "connected" : "failed");
    close(s);
    return 0;
}
